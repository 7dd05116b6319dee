/** Reads for work threads: which sessions share which files, error signatures and branches. */
import type Database from "better-sqlite3";
import type { ThreadReads } from "./thread-types.ts";

export function createThreadReads(_db: Database.Database): ThreadReads {
  return {};
}
