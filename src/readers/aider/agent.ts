/**
 * Aider (`aider`): no store of its own. Each project keeps its chat history, `.aider.chat.history.md`, in the
 * project's folder (the git repository's top folder, else the folder aider was started in), or where
 * `--chat-history-file` / `AIDER_CHAT_HISTORY_FILE` says. Cairn finds them by searching HOME for files of that name
 * (`TranscriptRoot.search`): HOME itself and folders up to four levels below it, not hidden folders, dependency and
 * virtual-environment folders, nor the inside of a git repository (a repository's history is at its top), and at
 * most a bounded number of folders in all, so a huge HOME cannot stall a scan. A history file deeper, inside a
 * hidden folder or past that bound is read when its folder is indexed by name (`cairn index <folder>`), or when
 * `AIDER_CHAT_HISTORY_FILE` names it.
 */
import { defineAgent } from "../agent.ts";
import type { TranscriptRoot } from "../vocabulary.ts";
import { aiderReader } from "./reader.ts";

export const HISTORY_FILE = ".aider.chat.history.md";

export const aider = defineAgent({
  provider: "aider",
  versionKey: "aider_version",
  name: "Aider",
  readers: [aiderReader],
  roots: (env, home) => {
    const roots: TranscriptRoot[] = [{ provider: "aider", dir: home, search: { name: HISTORY_FILE, depth: 4 } }];
    const own = env["AIDER_CHAT_HISTORY_FILE"];
    if (own) roots.push({ provider: "aider", dir: own });
    return roots;
  },
  transcriptFile: (name) => name === HISTORY_FILE,
  // Aider edits through SEARCH/REPLACE blocks, read as `edit` and `write` calls; commands are the person's `bash`.
  start: {
    inline: (text) => ["aider", "--message", text],
    file: (path) => [
      "aider",
      "--read",
      path,
      "--message",
      `Read the resume brief in ${path} first, then continue the work it describes.`,
    ],
  },
});
