/**
 * `createCairn()`: the application layer every surface stands on. It opens the index (read-only, or for writing
 * with its migrations and the one-writer lock), chooses the embedder the index was embedded with, and answers the
 * catalog's questions (`catalog/`), each checked against its input's schema and rules and shaped on its way out
 * (`shape/`): read through the redacting view, session ids beside their short forms, text made inert for a
 * terminal. Surfaces parse their input, ask and format what comes back; none holds SQL, ranking, id resolution or
 * redaction of its own.
 */
import { CairnError } from "../common/errors.ts";
import { chosenConfig, createEmbedder, EMBEDDER_SETTING } from "../embedders/config.ts";
import type { Embedder } from "../embedders/types.ts";
import { isDerived } from "../resume/timeline.ts";
import { resolveEventId, resolveSessionId, shortSessionId } from "../store/resolve.ts";
import type { CheckpointRow, ReadonlyStore } from "../store/types.ts";
import { answerQuestions, type Questions } from "./catalog/answers.ts";
import type { QuestionContext } from "./catalog/question.ts";
import { type CairnMode, type CairnOptions, openCore } from "./core.ts";
import { type IndexMethods, indexMethods } from "./index-app.ts";
import { type PurgeAnswer, purgeSecrets } from "./secrets.ts";
import { createRedaction, type Redaction } from "./shape/redacting-view.ts";
import { type ShapeOptions, shapeAnswer } from "./shape/shape.ts";
import { createShortIds } from "./shape/short-ids.ts";

export { IdError } from "../store/resolve.ts";
export type { BriefInput } from "./catalog/brief.ts";
export type { CheckpointsAnswer } from "./catalog/checkpoints.ts";
export type { EmbedStatus } from "./catalog/embed-status.ts";
export type { EventRequest, PagedEventAnswer } from "./catalog/event.ts";
export type { QuestionName } from "./catalog/index.ts";
export type { OverviewAnswer } from "./catalog/overview.ts";
export type { SearchAnswer, SearchRequest } from "./catalog/search.ts";
export type { SessionsRequest } from "./catalog/sessions.ts";
export type { ThreadTimelineRequest, ThreadTimelineWindow } from "./catalog/thread-timeline.ts";
export type { ThreadsRequest } from "./catalog/threads.ts";
export type { TimelineRequest } from "./catalog/timeline.ts";
export { CAIRN_MODES, type CairnMode, type CairnOptions } from "./core.ts";
export type { PruneAnswer } from "./index-app.ts";
export type { Shaped } from "./shape/shape.ts";

export interface CheckpointRequest {
  session: string;
  step: number;
  label?: string | null;
  /** The event to link it to (id or prefix); absent for the session's last event. */
  at?: string;
}

/** What every surface may ask: the catalog's questions, and the app's own few members. */
export type ReadCairn = Questions & {
  readonly mode: CairnMode;
  readonly dbPath: string;
  /** The index, read-only, through the redacting view (unless opened to reveal). Throws when there is no index. */
  reader(): ReadonlyStore;
  /** How the index was opened when that is worth saying (a read-only copy), else null. */
  notice(): string | null;
  /** The embedder queries are embedded with (the index's choice), or null for words only. */
  embedder(): Embedder | null;
  /** The shortest form of a session id (8 characters or more) that names it, for printing. */
  shortSessionId(id: string): string;
  close(): void;
};

/** Write mode adds indexing, embedding and recording checkpoints. */
export type Cairn = ReadCairn &
  IndexMethods & {
    checkpoint(req: CheckpointRequest): CheckpointRow & { ordinal: number };
    /** Takes a finding's (or a session's) secret values out of the local index; the agents' files are untouched. */
    purgeSecrets(req: { target: string; onWait?: (pid: number) => void }): Promise<PurgeAnswer>;
  };

export function createCairn(opts: CairnOptions & { mode: "write" }): Cairn;
export function createCairn(opts?: CairnOptions): ReadCairn;
export function createCairn(opts: CairnOptions = {}): Cairn | ReadCairn {
  const core = openCore(opts);
  const { env, cwd, mode, now, dbPath, opener, writer, requireIndex } = core;
  const reveal = opts.reveal === true;
  // Every question reads the index through the redacting view unless a person asked for the raw values.
  let viewed: { of: ReadonlyStore; redaction: Redaction } | null = null;
  const redaction = (): Redaction => {
    const s = core.store();
    if (viewed?.of !== s) viewed = { of: s, redaction: createRedaction(s) };
    return viewed.redaction;
  };
  const store = (): ReadonlyStore => (reveal ? core.store() : redaction().view);
  // The setting can change while a server runs (`cairn embed`), and a remote or model embedder is costly to make.
  let made: { setting: string; embedder: Embedder | null } | null = null;
  const embedder = () => {
    const config = chosenConfig(store().getSetting(EMBEDDER_SETTING), env);
    const setting = JSON.stringify(config);
    if (made?.setting !== setting) made = { setting, embedder: createEmbedder(config, env, cwd) };
    return made.embedder;
  };
  const indexing = () => import("./indexing.ts");
  const shaping: ShapeOptions = {
    exit: opts.exit ?? "data",
    // Short forms are cut from ids alone: the sessions' texts are not read, so they need no redacting.
    ids: createShortIds(() => core.store()),
    ...(reveal ? { reveal: true } : {}),
  };
  // A question built on other questions (ask's pack on search) asks the app itself, shaped like any surface.
  let self: Cairn | null = null;
  const ctx: QuestionContext = {
    store,
    now,
    cwd,
    env,
    embedder,
    sessionText: (sessionId, text) => (reveal ? text : redaction().sessionText(sessionId, text)),
    shapeText: (text) => shapeAnswer(text, { exit: shaping.exit }),
    app: () => self!,
    begin: () => {
      if (!reveal && viewed) viewed.redaction.renew();
    },
    keep: (key, value) => {
      if (mode !== "write") return;
      try {
        writer().putSetting(key, value);
      } catch {
        // Another writer holds the index: the next answer makes the value again.
      }
    },
  };
  const app: Cairn = {
    ...answerQuestions(ctx, shaping),
    mode,
    dbPath,
    reader: () => {
      ctx.begin();
      return store();
    },
    notice: () => opener.notice(),
    embedder,
    shortSessionId: (id) => shortSessionId(store(), id),
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
  self = app;
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
