/**
 * Claude Code: JSONL transcripts under `~/.claude/projects` (and `~/.config/claude/projects`), or under each folder
 * `CLAUDE_CONFIG_DIR` lists (comma-separated).
 */
import { join } from "node:path";
import { defineAgent } from "../agent.ts";
import { claudeReader } from "./reader.ts";

export const claude = defineAgent({
  provider: "claude",
  versionKey: "version",
  name: "Claude Code",
  readers: [claudeReader],
  roots(env, home) {
    const dirs = env["CLAUDE_CONFIG_DIR"]
      ? env["CLAUDE_CONFIG_DIR"].split(",").map((d) => d.trim())
      : [join(home, ".claude"), join(home, ".config", "claude")];
    return dirs.map((dir) => ({ provider: "claude", dir: join(dir, "projects") }));
  },
  tools: { edit: ["multiedit", "notebookedit"], read: ["notebookread"], plan: ["todowrite"] },
  start: {
    inline: (text) => ["claude", text],
    file: (path) => [
      "claude",
      "--append-system-prompt-file",
      path,
      "Your system prompt ends with a resume brief of earlier work on this project. Continue the work it describes.",
    ],
  },
});
