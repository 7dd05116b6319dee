/**
 * Gemini CLI's `SessionStart` hook (settings.json `hooks`, Claude Code's shape; on by default,
 * `hooksConfig.enabled`). The hook gets `{ session_id, transcript_path, cwd, source }` on stdin, `source` being
 * startup, resume or clear, and the CLI hands the model `hookSpecificOutput.additionalContext` wrapped in
 * `<hook_context>`: with `-p` before the prompt, interactively as a message of its own. Anything else the hook
 * prints (plain text, or stderr when stdout is empty) is shown to the user, not the model, so the hook prints
 * nothing when it has no brief. A matcher is one exact source, so cairn writes a group for startup and one for
 * clear: a resumed session already carries its history. The timeout is in milliseconds. At `SessionEnd` (the same
 * input, with a `reason`), cairn indexes the session.
 */
import { join } from "node:path";
import { parseStdinStart, settingsHook } from "../hook-settings.ts";

export const geminiHook = settingsHook(
  "gemini",
  { event: "SessionStart", matcher: ["startup", "clear"], timeout: 10_000, endEvent: "SessionEnd" },
  {
    settingsPath: (env, home) => join(env["GEMINI_CLI_HOME"] || home, ".gemini", "settings.json"),
    parseInput: (text) => parseStdinStart(text, ["resume"]),
    output: (context) =>
      `${JSON.stringify({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: context } })}\n`,
  },
);
