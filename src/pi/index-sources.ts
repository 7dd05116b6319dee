/**
 * The real brief and recall sources of the pi extension: cairn's application layer over its index (the same
 * database as the CLI, `CAIRN_DB` or the XDG default). Search is the same hybrid search `cairn search` runs.
 *
 * Recall works on first use, with no `cairn index` run beforehand: every call indexes the current pi session's
 * file first (creating the index when there is none), so answers include what was said a moment ago; and the
 * first call starts indexing the agents' own folders in the background (every agent cairn reads), so
 * the rest of the user's history arrives while the session goes on. Each call opens the database and closes it
 * again: a pi process holds no SQLite handle between tool calls, and a concurrent `cairn index` is waited for
 * through the index lock (or, for the background run, left to finish its work).
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { type Cairn, createCairn, type ReadCairn } from "../app/cairn.ts";
import { briefAtStart } from "../app/hooks.ts";
import { dbPathFor, isTeamIndex } from "../app/open.ts";
import { errorMessage, errorText } from "../common/errors.ts";
import { eventId } from "../topology/ids.ts";
import type { HandoffBriefSource } from "./handoff/brief-source.ts";
import type { RecallBrief, RecallSource } from "./recall/recall-source.ts";
import type { StartBriefSource } from "./start-brief/start-brief-source.ts";

export interface IndexSourcesOptions {
  /** Database path; defaults to `CAIRN_DB`, then `$XDG_DATA_HOME/cairn/cairn.db`. */
  dbPath?: string;
  env?: Record<string, string | undefined>;
  /** Index the agents' default folders in the background after the first call (default true). */
  background?: boolean;
}

export interface IndexSources {
  briefs: HandoffBriefSource;
  recall: RecallSource;
  startBriefs: StartBriefSource;
  /** Stops the background indexing (what it indexed is kept; the next run goes on from there) and waits for it. */
  close(): Promise<void>;
}

export function createIndexSources(opts: IndexSourcesOptions = {}): IndexSources {
  const env = opts.env ?? process.env;
  // What the extension shows goes to pi's terminal and to its model: control characters made inert.
  const base = { ...(opts.dbPath !== undefined ? { db: opts.dbPath } : {}), env, exit: "terminal" as const };
  const background = backgroundIndexer(base, opts.background !== false);

  /**
   * Reads the index after indexing `sessionFile`, so the answer includes what was just said. Without an index
   * (a fresh machine) this creates it. While the background run holds the index, the session's file is left to it.
   */
  async function withIndexed<T>(sessionFile: string | undefined, cwd: string, fn: (app: ReadCairn) => T | Promise<T>) {
    const given = opts.dbPath === undefined || isTeamIndex(opts.dbPath) ? opts.dbPath : resolve(cwd, opts.dbPath);
    const dbPath = dbPathFor(given, env);
    const file = sessionFile !== undefined && existsSync(sessionFile) ? sessionFile : undefined;
    // a team index on PostgreSQL is never "missing" here: it is made by whoever set it up
    const missing = !isTeamIndex(dbPath) && !existsSync(dbPath);
    const write = !background.running() && (file !== undefined || missing);
    const app: ReadCairn | Cairn = write ? createCairn({ ...base, cwd, mode: "write" }) : createCairn({ ...base, cwd });
    try {
      if (write) await (app as Cairn).refresh(file ? [file] : []);
      return await fn(app);
    } catch (error) {
      // pi shows a tool's error message alone: it carries the hint too.
      throw new Error(errorText(error));
    } finally {
      app.close();
      background.start(cwd);
    }
  }

  async function brief(app: ReadCairn, session: string, budget?: number, leaf?: string): Promise<RecallBrief> {
    const b = await app.brief({
      session,
      ...(budget !== undefined ? { budget_tokens: budget } : {}),
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
        return withIndexed(req.sessionFile, req.cwd, async (app) => {
          const result = await app.search({ query: req.query, limit: req.limit });
          const hits = result.hits.map((h) => ({
            eventId: h.event_id,
            sessionId: h.session_id,
            provider: h.provider,
            timestamp: h.timestamp ?? "",
            kind: h.event_type,
            snippet: h.snippet,
            evidence: h.evidence.map((l) => l.event_id),
          }));
          return { hits, meaningBy: result.meaning_by };
        });
      },
      async resumeBrief(req) {
        return withIndexed(req.sessionFile, req.cwd, (app) => {
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
      status: () => background.status(),
    },
    startBriefs: {
      // Unlike recall, a start brief starts no background index: it comes with every new session.
      startBrief: (req) =>
        briefAtStart(
          "pi",
          null,
          {
            cwd: req.cwd,
            sessionId: req.sessionId,
            ...(req.sessionFile ? { transcriptPath: req.sessionFile } : {}),
            continuation: false,
          },
          env,
          opts.dbPath !== undefined ? { db: opts.dbPath } : {},
        ),
    },
    close: () => background.stop(),
  };
}

interface BackgroundIndexer {
  /** Starts the run once (later calls do nothing). */
  start(cwd: string): void;
  running(): boolean;
  /** What the user should know about the run while it goes on or when it failed; undefined once it is done. */
  status(): string | undefined;
  stop(): Promise<void>;
}

/** One background run of `cairn index` over the agents' default folders, stoppable at its next chunk. */
function backgroundIndexer(base: { db?: string; env: Record<string, string | undefined> }, enabled: boolean) {
  const controller = new AbortController();
  let run: Promise<void> | undefined;
  let active = false;
  let failure: string | undefined;
  const indexer: BackgroundIndexer = {
    start(cwd) {
      if (!enabled || run || controller.signal.aborted) return;
      active = true;
      run = (async () => {
        const app = createCairn({ ...base, cwd, mode: "write" });
        try {
          // `try`: when `cairn index` or `cairn watch` holds the index, they are already doing this work.
          await app.index({ lock: "try", signal: controller.signal });
        } catch (error) {
          failure = errorMessage(error);
        } finally {
          app.close();
          active = false;
        }
      })();
    },
    running: () => active,
    status() {
      if (active) return "cairn is indexing your agents' transcripts in the background; results may be incomplete.";
      return failure === undefined ? undefined : `cairn could not index your agents' transcripts: ${failure}`;
    },
    async stop() {
      controller.abort();
      await run;
    },
  };
  return indexer;
}
