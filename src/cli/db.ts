import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { resolveDbPath } from "../indexer/db-path.ts";
import { openStore } from "../store/sqlite-store.ts";
import type { Store } from "../store/types.ts";
import type { CliIo } from "./io.ts";

export function dbPathOf(flag: string | undefined, io: CliIo): string {
  return resolveDbPath(flag, io.env, io.env["HOME"] ?? homedir());
}

/** Opens the index for reading; a missing index is an actionable error, not an empty answer. */
export function openIndexForReading(flag: string | undefined, io: CliIo): Store {
  const path = dbPathOf(flag, io);
  if (path !== ":memory:" && !existsSync(path)) {
    throw new Error(`no index at ${path}; run 'cairn index' first (or pass --db / set CAIRN_DB)`);
  }
  return openStore(path);
}
