/**
 * Qwen Code's `SessionStart` hook (settings.json `hooks`, Claude Code's shape; on unless `disableAllHooks`). The
 * hook gets `{ session_id, transcript_path, cwd, source }` on stdin, `source` being startup, resume, clear or
 * compact, and the CLI adds `hookSpecificOutput.additionalContext` (or plain stdout) to the system instruction of
 * the chat. The matcher takes `a|b` alternatives; the timeout is in seconds (1000 or more is read as
 * milliseconds). The transcript (`<.qwen>/projects/<folder>/chats/<session>.jsonl`) lies beside the project's
 * others.
 */
import { join } from "node:path";
import { parseStdinStart, settingsHook } from "../hook-settings.ts";

export const qwenHook = settingsHook(
  "qwen",
  { event: "SessionStart", matcher: "startup|clear", timeout: 10 },
  {
    settingsPath: (env, home) => join(env["QWEN_HOME"] || join(home, ".qwen"), "settings.json"),
    parseInput: (text) => parseStdinStart(text, ["resume", "compact"]),
    output: (context) =>
      `${JSON.stringify({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: context } })}\n`,
  },
);
