/**
 * Cursor, the editor and its `cursor-agent` CLI. Both write agent transcripts under `~/.cursor/projects`
 * (`$CURSOR_CONFIG_DIR/projects` too, when that moves the CLI's folder); the editor keeps its chats in its global
 * `state.vscdb`, under Electron's user-data folder: `${XDG_CONFIG_HOME:-~/.config}/Cursor` on Linux,
 * `~/Library/Application Support/Cursor` on macOS.
 */
import { join } from "node:path";
import { defineAgent } from "../agent.ts";
import type { TranscriptRoot } from "../vocabulary.ts";
import { composerReader } from "./composer-reader.ts";
import { cursorReader } from "./reader.ts";

function roots(env: Record<string, string | undefined>, home: string): TranscriptRoot[] {
  const projects = [join(home, ".cursor", "projects")];
  const moved = env["CURSOR_CONFIG_DIR"];
  if (moved) projects.push(join(moved, "projects"));
  const userData = [
    join(env["XDG_CONFIG_HOME"] || join(home, ".config"), "Cursor"),
    join(home, "Library", "Application Support", "Cursor"),
  ];
  return [
    ...projects.map((dir) => ({ provider: "cursor", dir })),
    // Only the database itself: the folder's subfolders are extensions' storage.
    ...userData.map((dir) => ({ provider: "cursor", dir: join(dir, "User", "globalStorage"), shallow: true })),
  ];
}

export const cursor = defineAgent({
  provider: "cursor",
  name: "Cursor",
  versionKey: "composer_version",
  readers: [cursorReader, composerReader],
  roots,
  transcriptFile: (name) => name === "state.vscdb",
  // The CLI's names (`Shell`, `StrReplace`, …) and the editor's (`run_terminal_cmd`, `search_replace`, …), lower case.
  tools: {
    shell: ["run_terminal_command", "run_terminal_command_v2"],
    read: ["read_file_v2"],
    edit: ["strreplace", "search_replace", "multiedit", "edit_file_v2"],
    search: ["grep_search", "file_search", "glob_file_search", "list_dir", "semanticsearch"],
    plan: ["todowrite"],
  },
});
