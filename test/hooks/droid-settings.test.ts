import { describe, expect, it } from "vitest";
import { droidHook } from "../../src/readers/droid/hook.ts";

const CMD = "/usr/bin/node /opt/cairn/bin/cairn.js hooks run droid";

describe("Factory Droid's settings with cairn's hook", () => {
  it("goes in ~/.factory/settings.json (or under $FACTORY_HOME_OVERRIDE), for every start, without a matcher", () => {
    expect(droidHook.settingsPath({}, "/home/u")).toBe("/home/u/.factory/settings.json");
    expect(droidHook.settingsPath({ FACTORY_HOME_OVERRIDE: "/f" }, "/home/u")).toBe("/f/.factory/settings.json");
    const user = '{\n  "customModels": []\n}\n';
    const once = droidHook.install(user, CMD);
    expect(droidHook.install(once, CMD)).toBe(once);
    expect(JSON.parse(once).hooks.SessionStart).toEqual([{ hooks: [{ type: "command", command: CMD, timeout: 10 }] }]);
    expect(JSON.parse(droidHook.remove(once) ?? "")).toEqual({ customModels: [] });
  });

  it("tells a resumed or compacted session from its source", () => {
    const start = (source: string) =>
      droidHook.parseInput(JSON.stringify({ session_id: "s", transcript_path: "/p/s.jsonl", cwd: "/w", source }));
    expect(start("startup").continuation).toBe(false);
    expect(start("clear").continuation).toBe(false);
    expect(start("resume").continuation).toBe(true);
    expect(start("compact").continuation).toBe(true);
    expect(start("startup").transcriptPath).toBe("/p/s.jsonl");
  });
});
