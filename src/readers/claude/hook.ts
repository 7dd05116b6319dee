/**
 * Claude Code's `SessionStart` hook (settings.json `hooks`; the hook gets `{ session_id, transcript_path, cwd,
 * source }` on stdin, `source` being startup, resume, clear or compact, and hands the model
 * `hookSpecificOutput.additionalContext`). cairn registers for startup and clear only: a resumed or compacted
 * session already carries its history. At `SessionEnd` (the same input, with a `reason`), cairn indexes the session.
 */
import { join } from "node:path";
import { parseStdinStart, settingsHook } from "../hook-settings.ts";

export const claudeHook = settingsHook(
  "claude",
  { event: "SessionStart", matcher: "startup|clear", timeout: 10, endEvent: "SessionEnd" },
  {
    settingsPath(env, home) {
      const dir = env["CLAUDE_CONFIG_DIR"]?.split(",")[0]?.trim() || join(home, ".claude");
      return join(dir, "settings.json");
    },
    parseInput: (text) => parseStdinStart(text, ["resume", "compact"]),
    output: (context) =>
      `${JSON.stringify({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: context } })}\n`,
  },
);
