/**
 * Roo Code, the VS Code extension `rooveterinaryinc.roo-cline`: one folder per task under the editor's global
 * storage (`<user data>/User/globalStorage/rooveterinaryinc.roo-cline/tasks/<task id>/`). Its user data folder is
 * `${XDG_CONFIG_HOME:-~/.config}/<editor>` on Linux, `~/Library/Application Support/<editor>` on macOS and
 * `~/.vscode-server/data` on a remote host; the extension also runs in VS Code Insiders, VSCodium, Cursor and
 * Windsurf, each with its own folder.
 */
import { join } from "node:path";
import { defineAgent } from "../agent.ts";
import type { TranscriptRoot } from "../vocabulary.ts";
import { rooReader } from "./reader.ts";

const EDITORS = ["Code", "Code - Insiders", "VSCodium", "Cursor", "Windsurf"];
const TASKS = join("User", "globalStorage", "rooveterinaryinc.roo-cline", "tasks");

function roots(env: Record<string, string | undefined>, home: string): TranscriptRoot[] {
  const config = env["XDG_CONFIG_HOME"] || join(home, ".config");
  const userData = [
    ...EDITORS.map((e) => join(config, e)),
    ...EDITORS.map((e) => join(home, "Library", "Application Support", e)),
    join(home, ".vscode-server", "data"),
  ];
  return userData.map((dir) => ({ provider: "roo", dir: join(dir, TASKS) }));
}

export const roo = defineAgent({
  provider: "roo",
  name: "Roo Code",
  readers: [rooReader],
  roots,
  // The conversation; `ui_messages.json` beside it is read as its context, `task_metadata.json` not at all.
  transcriptFile: (name) => name === "api_conversation_history.json",
  tools: {
    shell: ["execute_command"],
    read: ["simple_read_file"],
    write: ["write_to_file"],
    edit: ["apply_diff", "insert_content", "search_and_replace", "search_replace", "edit_file"],
    search: ["search_files", "list_files", "list_code_definition_names"],
    plan: ["update_todo_list"],
  },
});
