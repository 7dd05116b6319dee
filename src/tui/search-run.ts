/**
 * One search, brief, conversation, usage report or read of a session's threads as the terminal UI runs it, in its worker or (when there is
 * none) on the UI's thread, and the messages between the two. `CAIRN_TUI_SEARCH_HOLD` names a file a search waits
 * for, synchronously as a slow SQLite query would, before it runs: the tests use it to type while a search is held,
 * never the user.
 */
import { existsSync } from "node:fs";
import type { BriefJson } from "../app/brief.ts";
import type { ReadCairn, SearchAnswer, Shaped } from "../app/cairn.ts";
import type { UsageAnswer, WeekUsage } from "../app/catalog/usage.ts";
import type { Conversation } from "../app/conversation.ts";
import type { Env } from "../app/open.ts";
import { errorText } from "../common/errors.ts";
import type { AnswerCache } from "./answer-cache.ts";
import { type SessionThreads, threadsOf } from "./threads-tab.ts";
import type { UsageTab } from "./usage-tab.ts";

/** Words alone answer at once; meaning (hybrid) follows when the index has vectors (`searcher.ts`). */
export type SearchMode = "lexical" | "hybrid";

/** The Brief tab's brief: the text for a model (what `y` copies) and the view for a person (what is drawn). */
export type TuiBrief = Pick<BriefJson, "text" | "view">;

export type SearchAsk =
  | { id: number; kind: "search"; query: string; limit: number; mode: SearchMode }
  | { id: number; kind: "threads"; sessionId: string }
  | { id: number; kind: "brief"; sessionId: string }
  | { id: number; kind: "conversation"; sessionId: string; at: string | null }
  | { id: number; kind: "usage"; by: UsageTab["by"] }
  | { id: number; kind: "week" };

export type SearchReply =
  | { id: number; answer: SearchAnswer }
  | { id: number; threads: SessionThreads }
  | { id: number; brief: TuiBrief }
  | { id: number; conversation: Shaped<Conversation> }
  | { id: number; usage: Shaped<UsageAnswer> }
  | { id: number; week: Shaped<WeekUsage> | null }
  | { id: number; error: string };

export async function runSearch(
  app: ReadCairn,
  env: Env,
  ask: SearchAsk,
  cache: AnswerCache | null = null,
): Promise<SearchReply> {
  try {
    if (ask.kind === "threads") return { id: ask.id, threads: await threadsOf(app, ask.sessionId) };
    if (ask.kind === "brief") {
      const { text, view } = await app.brief({ session: ask.sessionId });
      return { id: ask.id, brief: { text, view } };
    }
    if (ask.kind === "conversation")
      return {
        id: ask.id,
        conversation: await app.conversation({ session: ask.sessionId, ...(ask.at ? { at: ask.at } : {}) }),
      };
    if (ask.kind === "usage") return { id: ask.id, usage: await app.usage({ by: ask.by }) };
    if (ask.kind === "week") return { id: ask.id, week: await app.weekSpend() };
    holdWhile(env["CAIRN_TUI_SEARCH_HOLD"]);
    const key = `${ask.mode} ${ask.limit} ${ask.query}`;
    const kept = cache?.get(key);
    if (kept) return { id: ask.id, answer: kept };
    const answer = await app.search({ query: ask.query, limit: ask.limit, mode: ask.mode });
    cache?.set(key, answer);
    return { id: ask.id, answer };
  } catch (error) {
    return { id: ask.id, error: errorText(error) };
  }
}

function holdWhile(file: string | undefined): void {
  if (!file) return;
  const cell = new Int32Array(new SharedArrayBuffer(4));
  while (!existsSync(file)) Atomics.wait(cell, 0, 0, 20);
}
