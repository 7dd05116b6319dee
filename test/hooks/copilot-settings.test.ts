import { describe, expect, it } from "vitest";
import { copilotHook } from "../../src/readers/copilot/hook.ts";

const CMD = "/usr/bin/node /opt/cairn/bin/cairn.js hooks run copilot";

describe("Copilot CLI's hooks file with cairn's hook", () => {
  it("writes a version 1 file of its own under $COPILOT_HOME/hooks", () => {
    expect(copilotHook.settingsPath({}, "/home/u")).toBe("/home/u/.copilot/hooks/cairn.json");
    expect(copilotHook.settingsPath({ COPILOT_HOME: "/c" }, "/home/u")).toBe("/c/hooks/cairn.json");
    const fresh = copilotHook.install(null, CMD);
    expect(JSON.parse(fresh)).toEqual({
      version: 1,
      hooks: { sessionStart: [{ type: "command", bash: CMD, timeoutSec: 10 }] },
    });
    expect(fresh.endsWith("\n")).toBe(true);
    expect(copilotHook.installed(fresh)).toBe(true);
  });

  it("is idempotent, keeps other entries and layout, and takes out only its own", () => {
    const user = '{\n\t"version": 1,\n\t"hooks": { "sessionStart": [ { "type": "command", "bash": "true" } ] }\n}';
    const once = copilotHook.install(user, CMD);
    expect(copilotHook.install(once, CMD)).toBe(once);
    expect(once).toMatch(/^\{\n\t"version"/);
    expect(JSON.parse(once).hooks.sessionStart).toEqual([
      { type: "command", bash: "true" },
      { type: "command", bash: CMD, timeoutSec: 10 },
    ]);
    // Another install path of cairn is replaced, not doubled.
    const moved = copilotHook.install(once, "node /elsewhere/cairn.js hooks run copilot");
    expect(JSON.parse(moved).hooks.sessionStart).toHaveLength(2);
    expect(JSON.parse(copilotHook.remove(once) ?? "")).toEqual(JSON.parse(user));
    expect(copilotHook.remove(user)).toBeNull();
    expect(copilotHook.installed(user)).toBe(false);
  });

  it("reads the camelCase start, answers with additionalContext, and looks in the session folders", () => {
    const start = copilotHook.parseInput(
      '{"sessionId":"s1","timestamp":1,"cwd":"/w","source":"resume","initialPrompt":"hi"}',
    );
    expect(start).toEqual({ cwd: "/w", sessionId: "s1", source: "resume", continuation: true });
    expect(copilotHook.parseInput('{"sessionId":"s2","cwd":"/w","source":"new"}').continuation).toBe(false);
    expect(JSON.parse(copilotHook.output("brief"))).toEqual({ additionalContext: "brief" });
    const where = copilotHook.earlier?.({ cwd: "/w", sessionId: "s1", continuation: false }, {}, "/home/u");
    expect(where?.dirs).toEqual(["/home/u/.copilot/session-state"]);
    expect(where?.file).toBe("events.jsonl");
    expect(where?.match("s1")).toBe(false);
    expect(where?.match("s0")).toBe(true);
  });
});
