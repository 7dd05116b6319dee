/**
 * Nanocoder (`@nanocollective/nanocoder`): sessions under its data folder, `$NANOCODER_DATA_DIR` or
 * `$XDG_DATA_HOME/nanocoder` (default `~/.local/share/nanocoder`; `~/Library/Application Support/nanocoder` on
 * macOS) `/sessions`, one `<uuid>.json` each.
 */
import { join } from "node:path";
import { defineAgent } from "../agent.ts";
import type { TranscriptRoot } from "../vocabulary.ts";
import { nanocoderReader } from "./reader.ts";

export const nanocoder = defineAgent({
  provider: "nanocoder",
  name: "Nanocoder",
  readers: [nanocoderReader],
  roots(env, home) {
    const data = env["NANOCODER_DATA_DIR"] || join(env["XDG_DATA_HOME"] || join(home, ".local", "share"), "nanocoder");
    const roots: TranscriptRoot[] = [{ provider: "nanocoder", dir: join(data, "sessions") }];
    const mac = join(home, "Library", "Application Support", "nanocoder", "sessions");
    if (!env["NANOCODER_DATA_DIR"] && !env["XDG_DATA_HOME"]) roots.push({ provider: "nanocoder", dir: mac });
    return roots;
  },
  transcriptFile: (name) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.json$/.test(name),
  tools: {
    shell: ["execute_bash"],
    edit: ["string_replace"],
    search: ["find_files", "search_file_contents", "list_directory"],
    plan: ["write_tasks"],
  },
});
