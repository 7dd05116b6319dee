/**
 * OpenCode (`opencode-ai`) and Kilo Code (`@kilocode/cli`, its fork): one SQLite database each under the XDG data
 * folder (`opencode/opencode.db`, `kilo/kilo.db`; a non-release channel writes `opencode-<channel>.db`).
 * `OPENCODE_DB` / `KILO_DB` name another database (a path, or a name inside the data folder).
 */
import { isAbsolute, join } from "node:path";
import type { TranscriptRoot } from "../vocabulary.ts";
import { opencodeReader } from "./reader.ts";

const TABLES = ["session", "message", "part"] as const;

export const opencode = opencodeReader("opencode", TABLES);
/** Kilo Code's database has OpenCode's tables and its own board tables. */
export const kilo = opencodeReader("kilo", [...TABLES, "kilo_board"]);

export function opencodeRoots(env: Record<string, string | undefined>, home: string): TranscriptRoot[] {
  const data = env["XDG_DATA_HOME"] || join(home, ".local", "share");
  const roots: TranscriptRoot[] = [
    { provider: "opencode", dir: join(data, "opencode"), shallow: true },
    { provider: "kilo", dir: join(data, "kilo"), shallow: true },
  ];
  for (const [provider, name] of [
    ["opencode", "OPENCODE_DB"],
    ["kilo", "KILO_DB"],
  ] as const) {
    const db = env[name];
    if (db && db !== ":memory:") roots.push({ provider, dir: isAbsolute(db) ? db : join(data, provider, db) });
  }
  return roots;
}
