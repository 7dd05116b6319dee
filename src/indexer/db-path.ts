import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { isPgUrl } from "../store/pg-url.ts";

/** `--db`, then `CAIRN_DB`, then `$XDG_DATA_HOME/cairn/cairn.db` (XDG default `~/.local/share`). */
export function resolveDbPath(flag: string | undefined, env: Record<string, string | undefined>, home: string): string {
  if (flag) return flag;
  if (env["CAIRN_DB"]) return env["CAIRN_DB"];
  const data = env["XDG_DATA_HOME"] || join(home, ".local", "share");
  return join(data, "cairn", "cairn.db");
}

/**
 * The index a command's `--db` names: a path relative to `cwd` (a PostgreSQL URL as given), else as
 * `resolveDbPath` finds it. An empty HOME is no home: the default would be relative to wherever the command runs.
 */
export function commandDbPath(db: string | undefined, cwd: string, env: Record<string, string | undefined>): string {
  return resolveDbPath(db === undefined || isPgUrl(db) ? db : resolve(cwd, db), env, env["HOME"] || homedir());
}
