/**
 * Factory Droid's `SessionStart` hook, in Claude Code's shape under `hooks` in `~/.factory/settings.json`
 * (`$FACTORY_HOME_OVERRIDE` stands for the home). Droid merges that with `~/.factory/hooks.json` event by event,
 * `hooks.json` winning, so cairn writes to `settings.json` and never shadows a user's own start hooks. The hook gets
 * Claude's stdin (`session_id`, `transcript_path` in the project's session folder, `cwd`, `source`: startup, resume,
 * clear or compact) and hands the model `hookSpecificOutput.additionalContext`. No matcher: a resumed or compacted
 * session is told apart from its `source`.
 */
import { join } from "node:path";
import { parseStdinStart, settingsHook } from "../hook-settings.ts";

export const droidHook = settingsHook(
  "droid",
  { event: "SessionStart", timeout: 10, endEvent: "SessionEnd" },
  {
    settingsPath: (env, home) => join(env["FACTORY_HOME_OVERRIDE"] || home, ".factory", "settings.json"),
    parseInput: (text) => parseStdinStart(text, ["resume", "compact"]),
    output: (context) =>
      `${JSON.stringify({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: context } })}\n`,
  },
);
