/**
 * Hermes Agent (Nous Research, `hermes`): every session of a profile in one SQLite database, `state.db`, in the
 * profile's folder: `$HERMES_HOME`, else `~/.hermes` (the default profile) and `~/.hermes/profiles/<name>/` (the
 * others). Beside it: its config, skills, memories, logs and caches, none of them a transcript (the JSON snapshots
 * `sessions.write_json_snapshots` adds to `sessions/` repeat the database).
 */
import { join } from "node:path";
import { defineAgent } from "../agent.ts";
import { hermesReader, hermesUsageReader } from "./reader.ts";

export const hermes = defineAgent({
  provider: "hermes",
  versionKey: "hermes_schema",
  name: "Hermes Agent",
  readers: [hermesReader, hermesUsageReader],
  roots: (env, home) => {
    const dir = env["HERMES_HOME"] || join(home, ".hermes");
    return [
      { provider: "hermes", dir, shallow: true },
      { provider: "hermes", dir: join(dir, "profiles") },
    ];
  },
  transcriptFile: (name) => name === "state.db",
  // A profile's own folders (skills, sandboxes, caches, its `sessions/` snapshots): only its `state.db` is read.
  notTranscript: (path) => /[\\/]profiles[\\/][^\\/]+[\\/][^\\/]+[\\/]/.test(path) && /[\\/]\.?hermes[\\/]/.test(path),
  // `patch` takes a V4A envelope (mode `patch`) or one replacement (mode `replace`).
  tools: { shell: ["terminal"], patch: ["patch"], search: ["search_files"], plan: ["todo"] },
});
