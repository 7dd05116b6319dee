import { join } from "node:path";

/** `--db`, then `CAIRN_DB`, then `$XDG_DATA_HOME/cairn/cairn.db` (XDG default `~/.local/share`). */
export function resolveDbPath(flag: string | undefined, env: Record<string, string | undefined>, home: string): string {
  if (flag) return flag;
  if (env["CAIRN_DB"]) return env["CAIRN_DB"];
  const data = env["XDG_DATA_HOME"] || join(home, ".local", "share");
  return join(data, "cairn", "cairn.db");
}
