/**
 * One search as the terminal UI runs it, in its worker or (when there is none) on the UI's thread, and the
 * messages between the two. `CAIRN_TUI_SEARCH_HOLD` names a file a search waits for, synchronously as a slow
 * SQLite query would, before it runs: the tests use it to type while a search is held, never the user.
 */
import { existsSync } from "node:fs";
import type { ReadCairn, SearchAnswer } from "../app/cairn.ts";
import type { Env } from "../app/open.ts";
import { errorText } from "../common/errors.ts";

export interface SearchAsk {
  id: number;
  query: string;
  limit: number;
}

export type SearchReply = { id: number; answer: SearchAnswer } | { id: number; error: string };

export async function runSearch(app: Pick<ReadCairn, "search">, env: Env, ask: SearchAsk): Promise<SearchReply> {
  holdWhile(env["CAIRN_TUI_SEARCH_HOLD"]);
  try {
    return { id: ask.id, answer: await app.search({ query: ask.query, limit: ask.limit }) };
  } catch (error) {
    return { id: ask.id, error: errorText(error) };
  }
}

function holdWhile(file: string | undefined): void {
  if (!file) return;
  const cell = new Int32Array(new SharedArrayBuffer(4));
  while (!existsSync(file)) Atomics.wait(cell, 0, 0, 20);
}
