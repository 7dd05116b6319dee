/**
 * OpenCode (`opencode-ai`) and Kilo Code (`@kilocode/cli`, its fork): one SQLite database each under the XDG data
 * folder (`opencode/opencode.db`, `kilo/kilo.db`; a non-release channel writes `opencode-<channel>.db`).
 * `OPENCODE_DB` / `KILO_DB` name another database (a path, or a name inside the data folder).
 */
import { opencodeReader } from "./reader.ts";

const TABLES = ["session", "message", "part"] as const;

export const opencode = opencodeReader("opencode", TABLES);
/** Kilo Code's database has OpenCode's tables and its own board tables. */
export const kilo = opencodeReader("kilo", [...TABLES, "kilo_board"]);

export { opencodeRoots } from "./roots.ts";
