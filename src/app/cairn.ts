/**
 * `createCairn()`: the application layer every surface stands on. It opens the index (read-only, or for writing
 * with its migrations and the one-writer lock), chooses the embedder the index was embedded with, resolves ids
 * by one rule, and answers each question in one shape. Surfaces parse their input, call it and format what it
 * returns; none of them holds SQL, ranking or id resolution.
 */

import { resolve } from "node:path";
import { CairnError } from "../common/errors.ts";
import { configuredEmbedder, createEmbedder, EMBEDDER_SETTING, parseEmbedderConfig } from "../embedders/config.ts";
import type { Embedder, EmbedderConfig } from "../embedders/types.ts";
import { type Checkpoint, listCheckpoints } from "../resume/checkpoints.ts";
import { isDerived } from "../resume/timeline.ts";
import type { VerifyResult } from "../resume/verify.ts";
import type { HybridResult, SearchMode } from "../search/hybrid.ts";
import { buildOverview, type Overview } from "../search/overview.ts";
import { parseTime } from "../search/query.ts";
import type { SessionTimelineRow } from "../search/timeline.ts";
import { latestSession, resolveEventId, resolveSessionId } from "../store/resolve.ts";
import type { CheckpointRow, ReadonlyStore, SessionFilter, SessionRow } from "../store/types.ts";
import type { ListThreadsOptions, ListThreadsResult, Thread } from "../threads/types.ts";
import type { Problem, Provider, SessionEvent, SessionKind } from "../topology/types.ts";
import type { BriefJson, BriefRequest } from "./brief.ts";
import { type EventAnswer, eventAnswer } from "./event.ts";
import type { ExportDocument } from "./export/document.ts";

export { IdError } from "../store/resolve.ts";

import { redactDeep } from "../secrets/redact.ts";
import { type CairnMode, type CairnOptions, openCore } from "./core.ts";
import { type IndexMethods, indexMethods } from "./index-app.ts";
import { listSecrets, type PurgeAnswer, purgeSecrets, type SecretsAnswer, type SecretsRequest } from "./secrets.ts";
import { type TimelineRequest, type TimelineWindow, timelineWindow } from "./timeline.ts";
import { cairnVersion } from "./version.ts";

export { CAIRN_MODES, type CairnMode, type CairnOptions } from "./core.ts";
export type { PruneAnswer } from "./index-app.ts";

export interface SearchRequest {
  /** cairn's query language. */
  query: string;
  limit?: number;
  /** hybrid (default), lexical (words only) or vector (meaning only). */
  mode?: SearchMode;
  /** Each hit's `why` gives its ranks and similarity ("words #1 + meaning #3 (0.52)"), not only how it matched. */
  explain?: boolean;
}

/** Hits with their evidence chains, ranked by words and meaning; `mode` says what ranked them. */
export type SearchAnswer = HybridResult;

export interface SessionsRequest {
  providers?: Provider[];
  projects?: string[];
  /** Times in the query language's forms (`2026-11-02`, `7d`, `yesterday`). */
  since?: string;
  until?: string;
  /** Main and forked sessions unless `all`: subagent and exec sessions belong to the session that started them. */
  all?: boolean;
  limit?: number;
}

export interface ThreadTimelineRequest {
  thread: string;
  /** Index of the first row; absent for the thread's last `limit` rows (where the work stopped). */
  start_row?: number;
  limit?: number;
  all?: boolean;
}

export interface ThreadTimelineWindow {
  thread: Thread;
  total_rows: number;
  /** Rows `start_row` up to (not including) `end_row`. */
  window: { start_row: number; end_row: number };
  rows: SessionTimelineRow[];
  earlier: { start_row: number } | null;
  later: { start_row: number } | null;
}

export type OverviewAnswer = Overview;

export interface CheckpointsAnswer {
  session_id: string;
  checkpoints: Checkpoint[];
}

export interface CheckpointRequest {
  session: string;
  step: number;
  label?: string | null;
  /** The event to link it to (id or prefix); absent for the session's last event. */
  at?: string;
}

export interface EmbedStatus {
  config: EmbedderConfig;
  embedder: string | null;
  dimension: number | null;
  bundles: number;
  embedded: number;
  queued: number;
  /** Whether the stored vectors come from the configured embedder. */
  current: boolean;
}

/** What every surface may ask: questions about the index, answered in one shape each. */
export interface ReadCairn {
  readonly mode: CairnMode;
  readonly dbPath: string;
  /** The index, read-only: for answers this layer does not shape yet. Throws when there is no index. */
  reader(): ReadonlyStore;
  /** How the index was opened when that is worth saying (a read-only copy), else null. */
  notice(): string | null;
  search(req: SearchRequest): Promise<SearchAnswer>;
  event(ref: string): EventAnswer;
  timeline(req: TimelineRequest): TimelineWindow;
  threadTimeline(req: ThreadTimelineRequest): Promise<ThreadTimelineWindow>;
  brief(req: BriefRequest): Promise<BriefJson>;
  threads(req?: ListThreadsOptions): Promise<ListThreadsResult>;
  overview(): OverviewAnswer;
  sessions(req?: SessionsRequest): SessionRow[];
  /** A session by id or unique prefix. */
  session(ref: string): SessionRow;
  /** The latest main session, anywhere or in one folder. */
  latestSession(cwd?: string): SessionRow;
  /** The session indexed from a transcript file, if it is indexed. */
  sessionOfFile(path: string): SessionRow | null;
  /** An event by id, unique prefix or citation, optionally within one session. */
  resolveEvent(ref: string, opts?: { sessionId?: string }): SessionEvent;
  thread(ref: string): Promise<Thread>;
  /** A session (or a thread's sessions) whole, for `export`: a session id or prefix, else a thread's. */
  exportDocument(ref: string, opts?: { redact?: boolean }): Promise<ExportDocument>;
  checkpoints(session: string): CheckpointsAnswer;
  verify(req: { session: string; actions?: number }): Promise<VerifyResult>;
  embedStatus(): EmbedStatus;
  /** The embedder queries are embedded with (the index's choice), or null for words only. */
  embedder(): Embedder | null;
  problems(limit?: number): Problem[];
  /** The secrets found in indexed history: where each was, its kind and fingerprint, never the value. */
  secrets(req?: SecretsRequest): SecretsAnswer;
  close(): void;
}

/** Write mode adds indexing, embedding and recording checkpoints. */
export interface Cairn extends ReadCairn, IndexMethods {
  checkpoint(req: CheckpointRequest): CheckpointRow & { ordinal: number };
  /** Takes a finding's (or a session's) secret values out of the local index; the agents' files are untouched. */
  purgeSecrets(req: { target: string; onWait?: (pid: number) => void }): Promise<PurgeAnswer>;
}

export function createCairn(opts: CairnOptions & { mode: "write" }): Cairn;
export function createCairn(opts?: CairnOptions): ReadCairn;
export function createCairn(opts: CairnOptions = {}): Cairn | ReadCairn {
  const core = openCore(opts);
  const { env, cwd, mode, now, dbPath, opener, store, writer, requireIndex } = core;
  // The setting can change while a server runs (`cairn embed`), and a remote or model embedder is costly to make.
  let made: { setting: string; embedder: Embedder | null } | null = null;
  const embedder = () => {
    const config = parseEmbedderConfig(store().getSetting(EMBEDDER_SETTING));
    const setting = JSON.stringify(config);
    if (made?.setting !== setting) made = { setting, embedder: createEmbedder(config, env, cwd) };
    return made.embedder;
  };
  // What only some commands need is loaded when first asked for: the indexer and its readers, the resume engine,
  // ranking, threads and export. A command then loads what it uses and little else (docs/performance.md).
  const indexing = () => import("./indexing.ts");
  const threads = () => import("../threads/index.ts");

  const app: Cairn = {
    mode,
    dbPath,
    reader: store,
    notice: () => opener.notice(),
    async search(req) {
      const s = store();
      const { answerSearch } = await import("./search-answer.ts");
      return answerSearch(s, req, embedder, now, env["HOME"]);
    },
    event: (ref) => eventAnswer(store(), ref),
    timeline: (req) => timelineWindow(store(), { now: now(), ...req }),
    async threadTimeline(req) {
      const s = store();
      const { thread, events } = (await threads()).threadTimeline(s, req.thread, { all: req.all === true });
      const total = events.length;
      const limit = req.limit ?? total;
      const start = req.start_row === undefined ? Math.max(0, total - limit) : Math.min(req.start_row, total);
      const end = Math.min(total, start + limit);
      return {
        thread,
        total_rows: total,
        window: { start_row: start, end_row: end },
        rows: events.slice(start, end),
        earlier: start > 0 ? { start_row: Math.max(0, start - limit) } : null,
        later: end < total ? { start_row: end } : null,
      };
    },
    async brief(req) {
      const { buildBrief } = await import("./brief.ts");
      const brief = await buildBrief(store(), req.cwd === undefined ? req : { ...req, cwd: resolve(cwd, req.cwd) });
      // A brief is handed to another agent (and its provider): secrets go as their markers.
      if (req.redact === false) return brief;
      const { knownSecrets } = await import("../secrets/redact.ts");
      const held = store().searchEvents({ match: null, secrets: true, sessionPrefix: brief.session_id, limit: 500 });
      return redactDeep(brief, knownSecrets(held.map((h) => h.event.text)));
    },
    async threads(req = {}) {
      const s = store();
      return (await threads()).listThreads(s, req);
    },
    overview: () => buildOverview(store()),
    sessions(req = {}) {
      const filter: SessionFilter = { limit: req.limit ?? 50 };
      if (req.providers?.length) filter.provider = req.providers;
      if (req.projects?.length) filter.project = req.projects;
      if (req.since !== undefined) filter.since = parseTime(req.since, now(), `since ${req.since}`);
      if (req.until !== undefined) filter.until = parseTime(req.until, now(), `until ${req.until}`, true);
      if (!req.all) filter.kinds = ["main", "fork"] satisfies SessionKind[];
      return store().listSessions(filter);
    },
    session: (ref) => resolveSessionId(store(), ref),
    latestSession: (dir) => latestSession(store(), dir === undefined ? undefined : resolve(cwd, dir)),
    sessionOfFile(path) {
      const file = resolve(cwd, path);
      return (
        store()
          .listSessions({})
          .find((s) => s.source_file === file && s.kind === "main") ??
        store()
          .listSessions({})
          .find((s) => s.source_file === file) ??
        null
      );
    },
    resolveEvent: (ref, o = {}) => resolveEventId(store(), ref, o),
    async thread(ref) {
      const s = store();
      return (await threads()).resolveThread(s, ref);
    },
    async exportDocument(ref, o = {}) {
      const s = store();
      const { exportDocument } = await import("./export/document.ts");
      const doc = exportDocument(s, ref, `cairn ${cairnVersion()}`);
      // An export is a document to share: secrets leave as their markers unless the user owns the destination.
      return o.redact === false ? doc : redactDeep(doc);
    },
    checkpoints(ref) {
      const s = resolveSessionId(store(), ref);
      return { session_id: s.session_id, checkpoints: listCheckpoints(store(), s.session_id) };
    },
    async verify(req) {
      const { verifyResumed } = await import("../resume/verify.ts");
      const s = resolveSessionId(store(), req.session);
      return verifyResumed(store(), { sessionId: s.session_id, ...(req.actions ? { actions: req.actions } : {}) });
    },
    embedStatus() {
      const s = store();
      const { config, embedder: e } = configuredEmbedder(s, env, cwd);
      const state = s.vectorState();
      return { config, ...state, current: e !== null && state.embedder === e.id };
    },
    embedder,
    problems: (limit) => store().problems(limit),
    secrets: (req = {}) => listSecrets(store(), req, now()),
    close: () => opener.close(),

    ...indexMethods(core),
    async purgeSecrets(req) {
      requireIndex();
      const lock = await (await indexing()).lockFor(core.deps, { ...(req.onWait ? { onWait: req.onWait } : {}) });
      try {
        return purgeSecrets(writer(), req.target);
      } finally {
        lock.release();
      }
    },
    checkpoint(req) {
      requireIndex();
      const s = writer();
      const session = resolveSessionId(s, req.session);
      const at = req.at
        ? resolveEventId(s, req.at, { sessionId: session.session_id })
        : s
            .sessionEvents(session.session_id)
            .filter((e) => !isDerived(e))
            .at(-1);
      if (!at) throw new CairnError("not_found", `session ${session.session_id} has no events to link a checkpoint to`);
      // One checkpoint per step and session: recording the step again moves it rather than piling up.
      const row: CheckpointRow = {
        checkpoint_id: `${session.session_id}:step:${req.step}`,
        session_id: session.session_id,
        event_id: at.event_id,
        step: req.step,
        label: req.label ?? null,
        created_at: now().toISOString(),
      };
      s.putCheckpoint(row);
      return { ...row, ordinal: at.ordinal };
    },
  };
  if (mode === "write") return app;
  const {
    defaultRoots: _d,
    index: _i,
    refresh: _r,
    watch: _w,
    embed: _e,
    updateVectors: _u,
    checkpoint: _c,
    prune: _p,
    purgeSecrets: _ps,
    ...read
  } = app;
  return read;
}
