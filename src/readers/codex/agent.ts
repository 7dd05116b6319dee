/**
 * Codex: rollouts under `$CODEX_HOME` (default `~/.codex`) `/sessions` and `/archived_sessions`; its TypeScript-era
 * releases wrote one JSON document per session (`rollout-….json`).
 */
import { join } from "node:path";
import { defineAgent } from "../agent.ts";
import { codexReader } from "./reader.ts";

export const codex = defineAgent({
  provider: "codex",
  versionKey: "cli_version",
  name: "Codex",
  readers: [codexReader],
  roots(env, home) {
    const dir = env["CODEX_HOME"] || join(home, ".codex");
    return [
      { provider: "codex", dir: join(dir, "sessions") },
      { provider: "codex", dir: join(dir, "archived_sessions") },
    ];
  },
  transcriptFile: (name) => /^rollout-.*\.json$/.test(name),
  tools: { shell: ["shell_command", "exec_command", "local_shell"], plan: ["update_plan"], patch: ["apply_patch"] },
  start: {
    inline: (text) => ["codex", text],
    // Codex reads no file at start-up: it is asked to read the brief first.
    file: (path) => [
      "codex",
      `Read the resume brief in ${path} before anything else, all of it (it is long: read it in parts if need be), then continue the work it describes.`,
    ],
  },
});
