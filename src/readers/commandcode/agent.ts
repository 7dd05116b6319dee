/**
 * Command Code (`command-code`, `cmd`): sessions in `~/.commandcode/projects/<project slug>/<session>.jsonl`, with
 * each session's file snapshots (`.checkpoints.jsonl`) beside it.
 */
import { join } from "node:path";
import { defineAgent } from "../agent.ts";
import { commandCodeReader } from "./reader.ts";

export const commandcode = defineAgent({
  provider: "commandcode",
  versionKey: "format_version",
  name: "Command Code",
  readers: [commandCodeReader],
  roots: (_env, home) => [{ provider: "commandcode", dir: join(home, ".commandcode", "projects") }],
  sidecarFile: (name) => name.endsWith(".checkpoints.jsonl"),
  tools: { shell: ["shell_command"], read: ["read_file"], write: ["write_file"], edit: ["edit_file"] },
  start: {
    inline: (text) => ["cmd", text],
    // It reads no file at start-up: it is asked to read the brief first.
    file: (path) => [
      "cmd",
      `Read the resume brief in ${path} before anything else, all of it (it is long: read it in parts if need be), then continue the work it describes.`,
    ],
  },
});
