/**
 * The real brief and recall sources of the pi extension: cairn's application layer over its index (the same
 * database as the CLI, `CAIRN_DB` or the XDG default). The current pi session is indexed first, so `/handoff` and
 * the brief tool see what was said a moment ago; search is the same hybrid search `cairn search` runs. Each call
 * opens the database and closes it again: a pi process holds no SQLite handle between tool calls, and a
 * concurrent `cairn index` is waited for through the index lock.
 */
import { existsSync } from "node:fs";
import { type Cairn, createCairn, type ReadCairn } from "../app/cairn.ts";
import { errorText } from "../common/errors.ts";
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
  const base = { ...(opts.dbPath !== undefined ? { db: opts.dbPath } : {}), env };

  /** Reads the index; with a session file, indexes it first so the answer includes what was just said. */
  async function withIndexed<T>(sessionFile: string | undefined, cwd: string, fn: (app: ReadCairn) => T | Promise<T>) {
    const fresh = sessionFile !== undefined && existsSync(sessionFile);
    const app: ReadCairn | Cairn = fresh ? createCairn({ ...base, cwd, mode: "write" }) : createCairn({ ...base, cwd });
    try {
      if (fresh) await (app as Cairn).refresh([sessionFile]);
      return await fn(app);
    } catch (error) {
      // pi shows a tool's error message alone: it carries the hint too.
      throw new Error(errorText(error));
    } finally {
      app.close();
    }
  }

  async function brief(app: ReadCairn, session: string, budget?: number, leaf?: string): Promise<RecallBrief> {
    const b = await app.brief({
      session,
      ...(budget !== undefined ? { budget } : {}),
      ...(leaf !== undefined ? { leaf } : {}),
    });
    return { markdown: b.text, citedEventIds: [...new Set(b.citations.map((c) => c.event_id))] };
  }

  return {
    briefs: {
      async buildBrief(req) {
        return withIndexed(req.sessionFile, req.cwd, (app) => {
          const session = app.sessionOfFile(req.sessionFile);
          if (!session) throw new Error(`nothing to brief yet: session ${req.sessionId} has no indexed events`);
          // The branch the user is on, when its leaf has been indexed (a leaf written a moment ago may not be).
          const leaf = req.leafId ? eventId("pi", session.session_id, req.leafId) : undefined;
          const known = leaf !== undefined && app.reader().getEvent(leaf) !== undefined;
          return brief(app, session.session_id, undefined, known ? leaf : undefined);
        });
      },
    },
    recall: {
      async search(req) {
        return withIndexed(undefined, req.cwd, async (app) =>
          (await app.search({ query: req.query, limit: req.limit })).hits.map((h) => ({
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
        return withIndexed(req.sessionId ? undefined : req.sessionFile, req.cwd, (app) => {
          if (req.sessionId) return brief(app, req.sessionId, req.budgetTokens);
          const session = req.sessionFile ? app.sessionOfFile(req.sessionFile) : null;
          if (!session)
            throw new Error(
              req.sessionFile
                ? `nothing to brief yet: ${req.sessionFile} holds no indexed pi session`
                : "give a session id: this pi session has no file yet",
            );
          return brief(app, session.session_id, req.budgetTokens);
        });
      },
    },
  };
}
