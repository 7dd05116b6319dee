/** Qwen Code's settings with cairn's hook: Claude Code's shape, a `startup|clear` matcher, the timeout in seconds. */
import { describe, expect, it } from "vitest";
import { qwenHook } from "../../src/readers/qwen/hook.ts";

const CMD = "/usr/bin/node /opt/cairn/dist/bundle/cairn.js hooks run qwen";

describe("Qwen Code's settings with cairn's hook", () => {
  it("adds one group, keeps the rest, is idempotent, and takes out only its own", () => {
    const user =
      '{\n  "$version": 4,\n  "hooks": { "SessionStart": [ { "hooks": [ { "type": "command", "command": "true" } ] } ] }\n}\n';
    const once = qwenHook.install(user, CMD);
    expect(qwenHook.install(once, CMD)).toBe(once);
    expect(JSON.parse(once)).toEqual({
      $version: 4,
      hooks: {
        SessionStart: [
          { hooks: [{ type: "command", command: "true" }] },
          { matcher: "startup|clear", hooks: [{ type: "command", command: CMD, timeout: 10 }] },
        ],
      },
    });
    expect(JSON.parse(qwenHook.remove(once) ?? "")).toEqual(JSON.parse(user));
  });

  it("lives in QWEN_HOME when it is set, and treats a resume or a compaction as a continuation", () => {
    expect(qwenHook.settingsPath({}, "/home/u")).toBe("/home/u/.qwen/settings.json");
    expect(qwenHook.settingsPath({ QWEN_HOME: "/q" }, "/home/u")).toBe("/q/settings.json");
    const start = (source: string) => qwenHook.parseInput(JSON.stringify({ session_id: "s", cwd: "/w", source }));
    expect(["startup", "clear", "resume", "compact"].map((s) => start(s).continuation)).toEqual([
      false,
      false,
      true,
      true,
    ]);
  });
});
