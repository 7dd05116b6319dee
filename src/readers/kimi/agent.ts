/** Kimi CLI: sessions under `$KIMI_SHARE_DIR` (default `~/.kimi`) `/sessions`, one `wire.jsonl` event log each. */
import { join } from "node:path";
import { defineAgent } from "../agent.ts";
import { kimiReader } from "./reader.ts";

export const kimi = defineAgent({
  provider: "kimi",
  name: "Kimi CLI",
  readers: [kimiReader],
  roots: (env, home) => [{ provider: "kimi", dir: join(env["KIMI_SHARE_DIR"] || join(home, ".kimi"), "sessions") }],
  // Beside each log, the model's context as last sent and the ones set aside at each compaction: not transcripts.
  sidecarFile: (name) => /^context(_\d+)?\.jsonl$/.test(name),
  // `Shell`, `Glob` and `Grep` are names every agent shares.
  tools: { read: ["readfile"], write: ["writefile"], edit: ["strreplacefile"], plan: ["settodolist"] },
  start: {
    inline: (text) => ["kimi", `--prompt=${text}`],
    // It reads no file at start-up: it is asked to read the brief first.
    file: (path) => [
      "kimi",
      `--prompt=Read the resume brief in ${path} before anything else, all of it (it is long: read it in parts if need be), then continue the work it describes.`,
    ],
  },
});
