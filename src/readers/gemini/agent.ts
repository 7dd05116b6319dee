/** Gemini CLI: chats under `$GEMINI_CLI_HOME` (or HOME) `/.gemini/tmp`; older releases wrote one JSON document each. */
import { join } from "node:path";
import { defineAgent } from "../agent.ts";
import { geminiReader } from "./reader.ts";

export const gemini = defineAgent({
  provider: "gemini",
  name: "Gemini CLI",
  readers: [geminiReader("gemini", /[\\/]\.gemini[\\/]tmp[\\/]/)],
  roots: (env, home) => [{ provider: "gemini", dir: join(env["GEMINI_CLI_HOME"] || home, ".gemini", "tmp") }],
  transcriptFile: (name) => /^session-.*\.json$/.test(name),
  tools: {
    shell: ["run_shell_command"],
    read: ["read_many_files"],
    edit: ["replace"],
    search: ["search_file_content", "list_directory"],
    plan: ["write_todos"],
  },
});
