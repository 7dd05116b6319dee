/**
 * Windsurf (Codeium's editor), its Cascade agent: when a `post_cascade_response_with_transcript` hook is configured
 * (`~/.codeium/windsurf/hooks.json`, or a workspace's `.windsurf/hooks.json`), Windsurf writes each conversation to
 * `~/.windsurf/transcripts/<trajectory id>.jsonl` after every reply, keeping the newest 100 files. Cascade's own
 * history (`~/.codeium/windsurf/cascade/*.pb`) is encrypted and is not read.
 */
import { join } from "node:path";
import { defineAgent } from "../agent.ts";
import { windsurfReader } from "./reader.ts";

export const windsurf = defineAgent({
  provider: "windsurf",
  name: "Windsurf",
  readers: [windsurfReader],
  roots: (_env, home) => [{ provider: "windsurf", dir: join(home, ".windsurf", "transcripts"), shallow: true }],
  // Its step types, as the transcript names them.
  tools: {
    shell: ["run_command"],
    read: ["view_file"],
    edit: ["code_action"],
    search: ["grep_search", "find", "list_directory", "code_search"],
  },
});
