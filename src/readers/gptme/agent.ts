/**
 * gptme: conversations under its logs folder, `$GPTME_LOGS_HOME`, else `<data>/gptme/logs` with `<data>` the
 * platform's (`$XDG_DATA_HOME`, `~/.local/share`, `~/Library/Application Support` on macOS), one
 * `<name>/conversation.jsonl` each.
 */
import { join } from "node:path";
import { defineAgent } from "../agent.ts";
import { gptmeReader } from "./reader.ts";

export const gptme = defineAgent({
  provider: "gptme",
  versionKey: "gptme_version",
  name: "gptme",
  readers: [gptmeReader],
  roots: (env, home) =>
    env["GPTME_LOGS_HOME"]
      ? [{ provider: "gptme", dir: env["GPTME_LOGS_HOME"] }]
      : [
          { provider: "gptme", dir: join(env["XDG_DATA_HOME"] || join(home, ".local", "share"), "gptme", "logs") },
          { provider: "gptme", dir: join(home, "Library", "Application Support", "gptme", "logs") },
        ],
  // Beside each conversation: its event log and the log before a compaction (copies of its messages), the
  // compactions' statistics, hook receipts, a subagent's progress, and other branches and compacted views.
  notTranscript: (path) =>
    /[\\/]gptme[\\/]logs[\\/][^\\/]+[\\/](?!conversation\.jsonl$)[^\\/]+\.jsonl$/.test(path) ||
    /[\\/]gptme[\\/]logs[\\/][^\\/]+[\\/](branches|views)[\\/][^\\/]+\.jsonl$/.test(path),
  // `shell`, `save`, `ipython` and `complete` as gptme names them; `patch` (a path and conflict-marker blocks) edits
  // the file it names.
  tools: { shell: ["shell"], write: ["save"] },
  start: {
    inline: (text) => ["gptme", text],
    file: (path) => [
      "gptme",
      `Read the resume brief in ${path} first, all of it, then continue the work it describes.`,
    ],
  },
});
