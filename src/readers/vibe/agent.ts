/**
 * Mistral Vibe (`vibe`): sessions under its session folder, `$VIBE_HOME/logs/session` (`~/.vibe` by default;
 * `session_logging.save_dir` in its config moves it, as does `VIBE_SESSION_LOGGING__SAVE_DIR`): Vibe 3's stores in
 * `unified/`, Vibe 2's `session_<time>_<id>/messages.jsonl`.
 */
import { join } from "node:path";
import { defineAgent } from "../agent.ts";
import { vibeMessagesReader } from "./messages.ts";
import { vibeReader } from "./reader.ts";

export const vibe = defineAgent({
  provider: "vibe",
  versionKey: "vibe_store_format",
  name: "Mistral Vibe",
  readers: [vibeReader, vibeMessagesReader],
  roots: (env, home) => [
    {
      provider: "vibe",
      dir: env["VIBE_SESSION_LOGGING__SAVE_DIR"] || join(env["VIBE_HOME"] || join(home, ".vibe"), "logs", "session"),
    },
  ],
  // A session store's pointer to its current snapshot: the file a session is read from.
  transcriptFile: (name) => name === "CURRENT",
  // A store's recovery journal: the records since its last snapshot, which the snapshot's files hold once made.
  notTranscript: (path) => /[\\/]unified[\\/][^\\/]+[\\/]journal[\\/]\d+\.jsonl$/.test(path),
  // Its tools as its screen names them (the model calls them `bash`, `read_file`, `edit`, `write_file`).
  tools: {
    shell: ["file_system.bash"],
    read: ["file_system.read_file"],
    write: ["file_system.write_file"],
    edit: ["file_system.search_replace"],
  },
  start: {
    // After `--`, a brief starting with a dash is still the first prompt, not an option.
    inline: (text) => ["vibe", "--", text],
    // Its `--prompt-file` runs headless and exits: the interactive session is asked to read the brief instead.
    file: (path) => [
      "vibe",
      "--",
      `Read the resume brief in ${path} first, all of it, then continue the work it describes.`,
    ],
  },
});
