/**
 * Gemini CLI's settings with cairn's hook (Claude Code's shape, one group per exact `source` matcher, the timeout
 * in milliseconds), and a `gemini -p` prompt that carries a hook's context before it, read apart from it.
 */
import { describe, expect, it } from "vitest";
import { geminiHook } from "../../src/readers/gemini/hook.ts";
import { jsonl, parseText } from "../helpers/transcripts.ts";

const CMD = "/usr/bin/node /opt/cairn/dist/bundle/cairn.js hooks run gemini";
const ours = (matcher: string) => ({ matcher, hooks: [{ type: "command", command: CMD, timeout: 10_000 }] });

describe("Gemini CLI's settings with cairn's hook", () => {
  it("adds a group for startup and one for clear, keeps everything else, and is idempotent", () => {
    const user =
      '{\n\t"security": { "auth": { "selectedType": "gemini-api-key" } },\n\t"hooks": { "SessionStart": [ { "matcher": "resume", "hooks": [ { "type": "command", "command": "true" } ] } ], "AfterTool": [] }\n}\n';
    const once = geminiHook.install(user, CMD);
    expect(geminiHook.install(once, CMD)).toBe(once);
    const parsed = JSON.parse(once);
    expect(parsed.security).toEqual({ auth: { selectedType: "gemini-api-key" } });
    expect(parsed.hooks.AfterTool).toEqual([]);
    expect(parsed.hooks.SessionStart).toEqual([
      { matcher: "resume", hooks: [{ type: "command", command: "true" }] },
      ours("startup"),
      ours("clear"),
    ]);
    expect(once).toMatch(/^\{\n\t"security"/);
    expect(geminiHook.installed(once)).toBe(true);
    expect(geminiHook.installed(user)).toBe(false);
    expect(JSON.parse(geminiHook.remove(once) ?? "")).toEqual(JSON.parse(user));
  });

  it("takes out every group of cairn's, dropping what it alone added", () => {
    const fresh = geminiHook.install(null, CMD);
    expect(JSON.parse(fresh).hooks.SessionStart).toEqual([ours("startup"), ours("clear")]);
    expect(JSON.parse(geminiHook.remove(fresh) ?? "")).toEqual({});
    expect(geminiHook.remove('{"hooks":{}}')).toBeNull();
  });

  it("lives in GEMINI_CLI_HOME's .gemini when it is set, and treats only a resume as a continuation", () => {
    expect(geminiHook.settingsPath({}, "/home/u")).toBe("/home/u/.gemini/settings.json");
    expect(geminiHook.settingsPath({ GEMINI_CLI_HOME: "/g" }, "/home/u")).toBe("/g/.gemini/settings.json");
    const start = (source: string) =>
      geminiHook.parseInput(JSON.stringify({ session_id: "s", transcript_path: "", cwd: "/w", source }));
    expect(start("resume").continuation).toBe(true);
    expect(start("startup").continuation).toBe(false);
    expect(start("clear").continuation).toBe(false);
    expect(JSON.parse(geminiHook.output("brief"))).toEqual({
      hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "brief" },
    });
  });
});

describe("a gemini -p prompt after a hook's context", () => {
  it("is the user's message, and the context before it is no work of the session", () => {
    const path = "/h/.gemini/tmp/work/chats/session-2026-01-01T00-00-abcdef12.jsonl";
    const parsed = parseText(
      path,
      jsonl(
        { sessionId: "abcdef12-0000", projectHash: "0".repeat(64), startTime: "2026-01-01T00:00:00Z", kind: "main" },
        {
          id: "u1",
          timestamp: "2026-01-01T00:00:01Z",
          type: "user",
          content: [{ text: "<hook_context>(From cairn, before this session began: …)</hook_context>\n\nTASK-BETA" }],
        },
        { id: "g1", timestamp: "2026-01-01T00:00:02Z", type: "gemini", content: "Done." },
      ),
    );
    const messages = parsed.events.filter((e) => e.event_type.endsWith("_message"));
    expect(messages.map((e) => [e.role, e.text])).toEqual([
      ["user", "TASK-BETA"],
      ["assistant", "Done."],
    ]);
    // The brief is the harness's context, not the session's work: the next brief does not quote it.
    const brief = parsed.events.filter((e) => e.text.includes("From cairn"));
    expect(brief.map((e) => [e.role, e.meta])).toEqual([["system", { injected: "hook_context", harness: true }]]);
  });
});
