/**
 * The real brief and recall sources of the pi extension: cairn's index (the same database as the CLI, `CAIRN_DB`
 * or the XDG default) and its resume engine. The current pi session is indexed first, so `/handoff` and the
 * brief tool see what was said a moment ago. Each call opens the database and closes it again: a pi process holds
 * no SQLite handle between tool calls, and a concurrent `cairn index` is waited for through the index lock.
 */
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { resolveDbPath } from "../indexer/db-path.ts";
import { indexPaths } from "../indexer/indexer.ts";
import { acquireLock } from "../indexer/lock.ts";
import type { ResumeBrief } from "../resume/brief-types.ts";
import { createResumeEngine } from "../resume/engine.ts";
import { createTokenCounter } from "../resume/tokens.ts";
import { search } from "../search/search.ts";
import { openStore } from "../store/sqlite-store.ts";
import type { Store } from "../store/types.ts";
import { eventId } from "../topology/ids.ts";
import type { HandoffBriefSource } from "./handoff/brief-source.ts";
import type { RecallBrief, RecallSource } from "./recall/recall-source.ts";

export interface IndexSourcesOptions {
  /** Database path; defaults to `CAIRN_DB`, then `$XDG_DATA_HOME/cairn/cairn.db`. */
  dbPath?: string;
  env?: Record<string, string | undefined>;
}

export function createIndexSources(opts: IndexSourcesOptions = {}): {
  briefs: HandoffBriefSource;
  recall: RecallSource;
} {
  const env = opts.env ?? process.env;
  const dbPath = () => opts.dbPath ?? resolveDbPath(undefined, env, env["HOME"] ?? homedir());

  async function withIndexed<T>(sessionFile: string | undefined, fn: (store: Store) => T): Promise<T> {
    const path = dbPath();
    if (sessionFile && existsSync(sessionFile)) {
      const lock = await acquireLock(path, 30_000, () => {});
      try {
        const store = openStore(path);
        try {
          indexPaths({ store, paths: [sessionFile], parallel: false });
          return fn(store);
        } finally {
          store.close();
        }
      } finally {
        lock.release();
      }
    }
    if (!existsSync(path)) throw new Error(`no cairn index at ${path}; run 'cairn index' first (or set CAIRN_DB)`);
    const store = openStore(path, { readonly: true });
    try {
      return fn(store);
    } finally {
      store.close();
    }
  }

  function brief(store: Store, sessionId: string, budget: number | undefined, leaf?: string): RecallBrief {
    const engine = createResumeEngine({ store, counter: createTokenCounter() });
    const b: ResumeBrief = engine.brief({
      sessionId,
      ...(budget !== undefined ? { budget } : {}),
      ...(leaf && store.getEvent(leaf) ? { leaf } : {}),
    });
    return { markdown: b.text, citedEventIds: [...new Set(b.citations.map((c) => c.event_id))] };
  }

  /** The session a pi file holds, once indexed (a pi file holds exactly one). */
  function sessionOfFile(store: Store, file: string): string {
    const found = store.listSessions({ provider: ["pi"] }).find((s) => s.source_file === file);
    if (!found) throw new Error(`nothing to brief yet: ${file} holds no indexed pi session`);
    return found.session_id;
  }

  return {
    briefs: {
      async buildBrief(req) {
        return withIndexed(req.sessionFile, (store) => {
          if (!store.getSession(req.sessionId))
            throw new Error(`nothing to brief yet: session ${req.sessionId} has no indexed events`);
          const leaf = req.leafId ? eventId("pi", req.sessionId, req.leafId) : undefined;
          return brief(store, req.sessionId, undefined, leaf);
        });
      },
    },
    recall: {
      async search(req) {
        return withIndexed(undefined, (store) =>
          search(store, req.query, { limit: req.limit }).hits.map((h) => ({
            eventId: h.event_id,
            sessionId: h.session_id,
            provider: h.provider,
            timestamp: h.timestamp ?? "",
            kind: h.event_type,
            snippet: h.snippet,
            evidence: h.evidence.map((l) => l.event_id),
          })),
        );
      },
      async resumeBrief(req) {
        return withIndexed(req.sessionId ? undefined : req.sessionFile, (store) => {
          const id = req.sessionId ?? (req.sessionFile ? sessionOfFile(store, req.sessionFile) : undefined);
          if (!id) throw new Error("give a session id: this pi session has no file yet");
          const session = store.getSession(id) ?? store.listSessions({ idPrefix: id, limit: 2 })[0];
          if (!session) throw new Error(`no session ${id} in the index`);
          return brief(store, session.session_id, req.budgetTokens);
        });
      },
    },
  };
}
