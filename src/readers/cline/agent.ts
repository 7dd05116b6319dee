/** Cline CLI: sessions under `~/.cline/data/sessions`, each `<id>.messages.json` (the `<id>.json` beside it is metadata). */
import { join } from "node:path";
import { defineAgent } from "../agent.ts";
import { clineReader } from "./reader.ts";

export const cline = defineAgent({
  provider: "cline",
  versionKey: "cline_version",
  name: "Cline",
  readers: [clineReader],
  roots: (_env, home) => [{ provider: "cline", dir: join(home, ".cline", "data", "sessions") }],
  transcriptFile: (name) => name.endsWith(".messages.json"),
  // `read_files` and `editor` are told apart by their arguments in topology/tool-call-input.ts.
  tools: { shell: ["run_commands"] },
});
