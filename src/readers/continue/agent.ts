/**
 * Continue (CLI `cn` and IDE extensions): sessions under `$CONTINUE_GLOBAL_DIR` (default `~/.continue`) `/sessions`,
 * each `<uuid>.json`; the `sessions.json` index beside them is not a transcript.
 */
import { join } from "node:path";
import { defineAgent } from "../agent.ts";
import { continueReader } from "./reader.ts";

export const cont = defineAgent({
  provider: "continue",
  name: "Continue",
  readers: [continueReader],
  roots: (env, home) => [
    { provider: "continue", dir: join(env["CONTINUE_GLOBAL_DIR"] || join(home, ".continue"), "sessions") },
  ],
  transcriptFile: (name) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.json$/i.test(name),
  // Its Read and Write name the file `filepath`; MultiEdit is every agent's.
  tools: { search: ["list", "search"], plan: ["checklist"] },
  start: {
    inline: (text) => ["cn", text],
    // `--prompt` reads a file when given a path, and the terminal UI sends it as the first message.
    file: (path) => ["cn", "--prompt", path],
  },
});
