/**
 * OpenCode (`opencode-ai`) and Kilo Code (`@kilocode/cli`, its fork): one SQLite database each under the XDG data
 * folder (`opencode/opencode.db`, `kilo/kilo.db`; a non-release channel writes `opencode-<channel>.db`).
 * `OPENCODE_DB` / `KILO_DB` name another database (a path, or a name inside the data folder).
 */
import { isAbsolute, join } from "node:path";
import { defineAgent } from "../agent.ts";
import type { TranscriptRoot } from "../vocabulary.ts";
import { opencodeReader } from "./reader.ts";

const TABLES = ["session", "message", "part"] as const;

function databaseRoots(provider: "opencode" | "kilo", variable: string) {
  return (env: Record<string, string | undefined>, home: string): TranscriptRoot[] => {
    const data = join(env["XDG_DATA_HOME"] || join(home, ".local", "share"), provider);
    // Only the database itself: the data folder's subfolders hold snapshots and logs.
    const roots: TranscriptRoot[] = [{ provider, dir: data, shallow: true }];
    const db = env[variable];
    if (db && db !== ":memory:") roots.push({ provider, dir: isAbsolute(db) ? db : join(data, db) });
    return roots;
  };
}

export const opencode = defineAgent({
  provider: "opencode",
  name: "OpenCode",
  versionKey: "version",
  readers: [opencodeReader("opencode", TABLES)],
  roots: databaseRoots("opencode", "OPENCODE_DB"),
  transcriptFile: (name) => /^opencode(-[\w.-]+)?\.db$/.test(name),
  tools: { plan: ["todowrite"], patch: ["patch"] },
});

/** Kilo Code's database has OpenCode's tables and its own board tables. */
export const kilo = defineAgent({
  provider: "kilo",
  name: "Kilo Code",
  versionKey: "version",
  readers: [opencodeReader("kilo", [...TABLES, "kilo_board"])],
  roots: databaseRoots("kilo", "KILO_DB"),
  transcriptFile: (name) => /^kilo(-[\w.-]+)?\.db$/.test(name),
  tools: { plan: ["todowrite"], patch: ["patch"] },
});
