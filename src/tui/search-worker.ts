/**
 * The terminal UI's search thread: its own read-only handle to the index, opened once and kept, answering one
 * question at a time, so a slow search (better-sqlite3 is synchronous) never holds up keys and frames.
 */
import { parentPort, workerData } from "node:worker_threads";
import { createCairn } from "../app/cairn.ts";
import type { Env } from "../app/open.ts";
import { AnswerCache, fileStamp } from "./answer-cache.ts";
import { runSearch, type SearchAsk } from "./search-run.ts";

export interface SearchWorkerData {
  db: string;
  env: Env;
  cwd: string;
}

const data = workerData as SearchWorkerData;
const app = createCairn({ db: data.db, env: data.env, cwd: data.cwd, exit: "terminal" });
const cache = new AnswerCache(fileStamp(data.db));
// The thread starts when the search field opens, a moment before the first key: a first search loads the search
// modules and prepares their statements (about 0.15 s of CPU at 1 M events), so one that reads little does it now.
void app.search({ query: "cairn", limit: 1, mode: "lexical" }).catch(() => {});
// Then, a slice at a time between questions, the pages every ranked search reads (the FTS size table): a first
// search of a common word on a new handle costs about twice its later runs until they have been read once.
const warmNext = () => {
  try {
    if (app.reader().warmSearch?.()) setImmediate(warmNext);
  } catch {
    // Getting ready is only a speed-up: a search will say what is wrong with the index.
  }
};
setImmediate(warmNext);
parentPort!.on("message", async (ask: SearchAsk) => {
  parentPort!.postMessage(await runSearch(app, data.env, ask, cache));
});
