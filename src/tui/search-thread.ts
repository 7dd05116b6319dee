/**
 * Where the UI's searches run: a worker thread with its own read-only handle to the same index (`search-worker.ts`)
 * when the index is a SQLite file, else the UI's own thread. Either answers one question at a time; the searcher
 * decides which question goes next.
 */
import { existsSync } from "node:fs";
import { Worker } from "node:worker_threads";
import type { ReadCairn, SearchAnswer, Shaped } from "../app/cairn.ts";
import type { UsageAnswer, WeekUsage } from "../app/catalog/usage.ts";
import type { Conversation } from "../app/conversation.ts";
import { type Env, isTeamIndex } from "../app/open.ts";
import { runSearch, type SearchAsk, type SearchMode, type SearchReply, type TuiBrief } from "./search-run.ts";
import type { SearchWorkerData } from "./search-worker.ts";
import type { SessionThreads } from "./threads-tab.ts";
import type { UsageTab } from "./usage-tab.ts";

export interface SearchBackend {
  /** Resolves with the answer, or rejects with the error said in one line. */
  search(query: string, limit: number, mode: SearchMode): Promise<SearchAnswer>;
  /** The Threads tab's reading (seconds on a large index: it walks every session). */
  threads(sessionId: string): Promise<SessionThreads>;
  /** The Brief tab's text (it reads the session whole and searches its secrets). */
  brief(sessionId: string): Promise<TuiBrief>;
  /** The Conversation tab's session read whole, and the block holding event `at`. */
  conversation(sessionId: string, at: string | null): Promise<Shaped<Conversation>>;
  /** The Usage tab's report (it sums every recorded call of the index). */
  usage(by: UsageTab["by"]): Promise<Shaped<UsageAnswer>>;
  /** This week's spend, for the header (it sums the week's recorded calls). */
  week(): Promise<Shaped<WeekUsage> | null>;
  readonly where: "worker" | "ui thread";
  /** Gets ready for a search soon (the search field opened). */
  warm(): void;
  close(): void;
}

function settle(reply: SearchReply): SearchAnswer {
  if ("error" in reply) throw new Error(reply.error);
  if (!("answer" in reply)) throw new Error("the search thread answered another question");
  return reply.answer;
}

function settleThreads(reply: SearchReply): SessionThreads {
  if ("error" in reply) throw new Error(reply.error);
  if (!("threads" in reply)) throw new Error("the search thread answered another question");
  return reply.threads;
}

function settleBrief(reply: SearchReply): TuiBrief {
  if ("error" in reply) throw new Error(reply.error);
  if (!("brief" in reply)) throw new Error("the search thread answered another question");
  return reply.brief;
}

function settleConversation(reply: SearchReply): Shaped<Conversation> {
  if ("error" in reply) throw new Error(reply.error);
  if (!("conversation" in reply)) throw new Error("the search thread answered another question");
  return reply.conversation;
}

function settleWeek(reply: SearchReply): Shaped<WeekUsage> | null {
  if ("error" in reply) throw new Error(reply.error);
  if (!("week" in reply)) throw new Error("the search thread answered another question");
  return reply.week;
}

function settleUsage(reply: SearchReply): Shaped<UsageAnswer> {
  if ("error" in reply) throw new Error(reply.error);
  if (!("usage" in reply)) throw new Error("the search thread answered another question");
  return reply.usage;
}

export function inThreadSearch(app: ReadCairn, env: Env): SearchBackend {
  let id = 0;
  return {
    where: "ui thread",
    search: async (query, limit, mode) =>
      settle(await runSearch(app, env, { id: ++id, kind: "search", query, limit, mode })),
    threads: async (sessionId) => settleThreads(await runSearch(app, env, { id: ++id, kind: "threads", sessionId })),
    brief: async (sessionId) => settleBrief(await runSearch(app, env, { id: ++id, kind: "brief", sessionId })),
    conversation: async (sessionId, at) =>
      settleConversation(await runSearch(app, env, { id: ++id, kind: "conversation", sessionId, at })),
    usage: async (by) => settleUsage(await runSearch(app, env, { id: ++id, kind: "usage", by })),
    week: async () => settleWeek(await runSearch(app, env, { id: ++id, kind: "week" })),
    warm() {},
    close() {},
  };
}

/** A worker for an index file; the UI's thread for anything else (an in-memory index, a team index). */
export function searchBackend(app: ReadCairn, env: Env, cwd: string): SearchBackend {
  const here = inThreadSearch(app, env);
  if (isTeamIndex(app.dbPath) || app.dbPath === ":memory:" || !existsSync(app.dbPath)) return here;
  const ext = import.meta.url.endsWith(".ts") ? ".ts" : ".js";
  const data: SearchWorkerData = { db: app.dbPath, env, cwd };
  const waiting = new Map<number, (reply: SearchReply) => void>();
  let broken = false;
  const fail = (error: unknown) => {
    broken = true;
    const message = `the search thread stopped (${error instanceof Error ? error.message : String(error)})`;
    for (const [id, done] of waiting) done({ id, error: message });
    waiting.clear();
  };
  // Started by the first call to warm() or a search (the UI warms it as it starts, run.ts): about 50 MB of RSS.
  let started: Worker | null = null;
  const worker = (): Worker => {
    if (started) return started;
    const w = new Worker(new URL(`./search-worker${ext}`, import.meta.url), { workerData: data });
    // The UI keeps the process alive while it is open; a search left running must not keep it after.
    w.unref();
    w.on("message", (reply: SearchReply) => {
      const done = waiting.get(reply.id);
      waiting.delete(reply.id);
      done?.(reply);
    });
    w.on("error", fail);
    w.on("exit", (code) => {
      if (waiting.size > 0) fail(new Error(`exit ${code}`));
    });
    started = w;
    return w;
  };
  const send = (ask: SearchAsk) =>
    new Promise<SearchReply>((resolve) => {
      waiting.set(ask.id, resolve);
      worker().postMessage(ask);
    });
  let id = 0;
  return {
    where: "worker",
    search(query, limit, mode) {
      // A worker that died leaves the searches to the UI's thread rather than to nothing.
      if (broken) return here.search(query, limit, mode);
      return send({ id: ++id, kind: "search", query, limit, mode }).then(settle);
    },
    threads(sessionId) {
      if (broken) return here.threads(sessionId);
      return send({ id: ++id, kind: "threads", sessionId }).then(settleThreads);
    },
    brief(sessionId) {
      if (broken) return here.brief(sessionId);
      return send({ id: ++id, kind: "brief", sessionId }).then(settleBrief);
    },
    conversation(sessionId, at) {
      if (broken) return here.conversation(sessionId, at);
      return send({ id: ++id, kind: "conversation", sessionId, at }).then(settleConversation);
    },
    usage(by) {
      if (broken) return here.usage(by);
      return send({ id: ++id, kind: "usage", by }).then(settleUsage);
    },
    week() {
      if (broken) return here.week();
      return send({ id: ++id, kind: "week" }).then(settleWeek);
    },
    warm() {
      if (!broken) worker();
    },
    close() {
      broken = true;
      void started?.terminate();
    },
  };
}
