/**
 * One search (or one read of a session's threads, which walks every session) as the terminal UI runs it, in its
 * worker or (when there is none) on the UI's thread, and the messages between the two. `CAIRN_TUI_SEARCH_HOLD` names a file a search waits for, synchronously as a slow
 * SQLite query would, before it runs: the tests use it to type while a search is held, never the user.
 */
import { existsSync } from "node:fs";
import type { ReadCairn, SearchAnswer } from "../app/cairn.ts";
import type { Env } from "../app/open.ts";
import { errorText } from "../common/errors.ts";
import { type SessionThreads, threadsOf } from "./threads-tab.ts";

export type SearchAsk =
  | { id: number; kind: "search"; query: string; limit: number }
  | { id: number; kind: "threads"; sessionId: string };

export type SearchReply =
  | { id: number; answer: SearchAnswer }
  | { id: number; threads: SessionThreads }
  | { id: number; error: string };

export async function runSearch(app: ReadCairn, env: Env, ask: SearchAsk): Promise<SearchReply> {
  try {
    if (ask.kind === "threads") return { id: ask.id, threads: threadsOf(app, ask.sessionId) };
    holdWhile(env["CAIRN_TUI_SEARCH_HOLD"]);
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
