import { describe, expect, it } from "vitest";
import { projectOfRemote, remoteKey, remoteOfConfig } from "../../src/topology/remote.ts";

describe("repository remotes", () => {
  it("gives every form of one remote the same key", () => {
    for (const url of [
      "git@github.com:acme/widget.git",
      "https://github.com/acme/widget",
      "https://github.com/Acme/Widget.git/",
      "ssh://git@github.com:22/acme/widget.git",
      "https://user:token@github.com/acme/widget.git",
      "git+ssh://git@github.com/acme/widget",
    ])
      expect(remoteKey(url), url).toBe("github.com/acme/widget");
    expect(remoteKey("git@gitlab.example.com:group/sub/proj.git")).toBe("gitlab.example.com/group/sub/proj");
    expect(projectOfRemote("gitlab.example.com/group/sub/proj")).toBe("proj");
  });

  it("names no host for local paths", () => {
    for (const url of ["/srv/git/widget.git", "file:///srv/git/widget", "C:/src/widget", "../widget", ""])
      expect(remoteKey(url), url).toBeNull();
  });

  it("reads origin from a git config, else the first remote", () => {
    const config = `[core]\n\tbare = false\n[remote "upstream"]\n\turl = git@github.com:up/widget.git\n[remote "origin"]\n\turl = https://github.com/acme/widget\n[branch "main"]\n\turl = nope\n`;
    expect(remoteOfConfig(config)).toBe("github.com/acme/widget");
    expect(remoteOfConfig(`[remote "upstream"]\n  url = git@github.com:up/widget.git\n`)).toBe("github.com/up/widget");
    expect(remoteOfConfig("[core]\n\tbare = false\n")).toBeNull();
  });
});
