/**
 * Auggie (Augment's CLI, `auggie`): sessions under `~/.augment/sessions`, one `<uuid>.json` each. The folder moves
 * only with `--augment-cache-dir` (no environment variable); the `-backupN.json` copies beside the sessions are not
 * transcripts.
 */
import { join } from "node:path";
import { defineAgent } from "../agent.ts";
import { auggieReader } from "./reader.ts";

const SESSION = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.json$/i;

export const auggie = defineAgent({
  provider: "auggie",
  name: "Auggie",
  readers: [auggieReader],
  roots: (_env, home) => [{ provider: "auggie", dir: join(home, ".augment", "sessions") }],
  transcriptFile: (name) => SESSION.test(name),
  tools: {
    shell: ["launch-process"],
    write: ["save-file"],
    edit: ["str-replace-editor"],
    search: ["grep-search", "codebase-retrieval"],
  },
  start: {
    // `--instruction` takes a brief that starts with a dash as its value, not as an option.
    inline: (text) => ["auggie", "--instruction", text],
    file: (path) => ["auggie", "--instruction-file", path],
  },
});
