/**
 * VS Code's chat (GitHub Copilot Chat and other chat participants), in the editor's user-data folder: on Linux
 * `${XDG_CONFIG_HOME:-~/.config}/Code/User`, on macOS `~/Library/Application Support/Code/User`, and the same for
 * `Code - Insiders` and `VSCodium`. Each workspace's sessions are in `workspaceStorage/<workspace>/chatSessions/`,
 * a window with no folder's in `globalStorage/emptyWindowChatSessions/`.
 */
import { join } from "node:path";
import { defineAgent } from "../agent.ts";
import type { TranscriptRoot } from "../vocabulary.ts";
import { vscodeReader } from "./reader.ts";

const EDITIONS = ["Code", "Code - Insiders", "VSCodium"];

function roots(env: Record<string, string | undefined>, home: string): TranscriptRoot[] {
  const bases = [join(env["XDG_CONFIG_HOME"] || join(home, ".config")), join(home, "Library", "Application Support")];
  return bases.flatMap((base) =>
    EDITIONS.flatMap((edition) => {
      const user = join(base, edition, "User");
      return [
        // Only the sessions folder of each workspace: beside it are other extensions' files and databases.
        { provider: "vscode", dir: join(user, "workspaceStorage"), folder: "chatSessions" },
        { provider: "vscode", dir: join(user, "globalStorage", "emptyWindowChatSessions"), shallow: true },
      ];
    }),
  );
}

export const vscode = defineAgent({
  provider: "vscode",
  name: "VS Code Copilot Chat",
  versionKey: "extension_version",
  readers: [vscodeReader],
  roots,
  // A session is `<uuid>.json` (older) or `<uuid>.jsonl`.
  transcriptFile: (name) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.json$/i.test(name),
  tools: {
    shell: ["run_in_terminal"],
    read: ["copilot_readfile"],
    write: ["copilot_createfile"],
    edit: ["copilot_replacestring", "copilot_multireplacestring", "copilot_insertedit", "vscode_editfile_internal"],
    search: [
      "copilot_findtextinfiles",
      "copilot_findfiles",
      "copilot_searchcodebase",
      "copilot_listdirectory",
      "copilot_searchworkspacesymbols",
    ],
    plan: ["manage_todo_list"],
  },
});
