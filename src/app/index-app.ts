/**
 * The writing side of the app that goes through the indexer: indexing, watching, embedding, pruning. `createCairn`
 * spreads these methods into its write mode; `indexAppOf` is the same methods with only the open and the problem
 * list beside them, for `cairn index`, which then loads neither search, timeline, secrets nor resume code (each
 * module of the bundle costs a new process about 0.4 ms: docs/performance.md, fifth round). Before any of that,
 * `unchangedIndex` answers a run that finds nothing to do without loading the store or opening it for writing.
 */
import { existsSync, type Stats, statSync } from "node:fs";
import { homedir } from "node:os";
import { resolve } from "node:path";
import { embedderId, installedModel } from "../embedders/models/installed.ts";
import { chosenConfig, EMBEDDER_SETTING } from "../embedders/setting.ts";
import { STATIC_EMBEDDER_ID } from "../embedders/static.ts";
import type { EmbedderConfig } from "../embedders/types.ts";
import { commandDbPath } from "../indexer/db-path.ts";
import { idleIndexResult } from "../indexer/index-lazily.ts";
import type { IndexProgress, IndexResult } from "../indexer/indexer.ts";
import { lockPathFor } from "../indexer/lock.ts";
import { idleGone, listTranscripts, type RunPlan } from "../indexer/plan.ts";
import { statTranscript, type Unreadable } from "../indexer/scan.ts";
import { defaultRoots, type TranscriptRoot } from "../readers/roots.ts";
import type { RefreshResult } from "../search/vectors.ts";
import { isPgUrl } from "../store/pg/url.ts";
import { readIndexStamps } from "../store/sqlite/stamps.ts";
import type { Problem } from "../topology/types.ts";
import type { AppCore } from "./core.ts";
import type {
  EmbedRequest,
  GoneFile,
  IndexAnswer,
  IndexRequest,
  runEmbed,
  VectorOutcome,
  WatchRequest,
} from "./indexing.ts";
import { withListedRoots } from "./listed-roots.ts";

/** The agents' own transcript folders, honouring their environment overrides. */
export function agentRoots(env: Record<string, string | undefined>): TranscriptRoot[] {
  return withListedRoots(defaultRoots(env, env["HOME"] || homedir()));
}

export interface PruneAnswer {
  dry_run: boolean;
  /** The files marked gone (before pruning). */
  files: GoneFile[];
  /** What was forgotten; null on a dry run. */
  pruned: { files: number; sessions: number; events: number } | null;
}

export interface IndexMethods {
  /** The agents' own transcript folders (honouring their environment overrides). */
  defaultRoots(): TranscriptRoot[];
  index(req?: IndexRequest): Promise<IndexAnswer>;
  /**
   * Indexes these files now (nothing embedded), so what follows reads what was just written; waits up to `waitMs`
   * (default 30 s) for another process that holds the index.
   */
  refresh(paths: readonly string[], opts?: { waitMs?: number }): Promise<IndexResult | null>;
  watch(req: WatchRequest): Promise<void>;
  embed(req?: EmbedRequest): Promise<{ config: EmbedderConfig } & Awaited<ReturnType<typeof runEmbed>>>;
  /** Embeds what is queued, within a time budget; never throws. */
  updateVectors(opts?: { budgetMs?: number }): Promise<VectorOutcome>;
  /** Forgets the sessions whose transcripts are gone from disk; `dry_run` only lists them. */
  prune(req?: { dry_run?: boolean; onWait?: (pid: number) => void }): Promise<PruneAnswer>;
}

/** What only some runs need (the indexer and its readers, the embedders) is loaded when first asked for. */
export function indexMethods(core: AppCore): IndexMethods {
  const indexing = () => import("./indexing.ts");
  const { deps, env, cwd } = core;
  const methods: IndexMethods = {
    defaultRoots: () => agentRoots(env),
    async index(req = {}) {
      const { checkRoots, runIndex } = await indexing();
      const roots = core.absolute(req.roots ?? methods.defaultRoots());
      checkRoots(roots);
      return runIndex(deps, roots, req);
    },
    async refresh(paths, opts = {}) {
      const { checkRoots, runIndex } = await indexing();
      const roots = paths.map((p) => resolve(cwd, p));
      checkRoots(roots);
      const waitMs = opts.waitMs ?? 30_000;
      return (await runIndex(deps, roots, { embed: false, parallel: false, waitMs, compact: false })).indexed;
    },
    async watch(req) {
      const { checkRoots, runWatch } = await indexing();
      const roots = core.absolute(req.roots);
      checkRoots(roots);
      return runWatch(deps, { ...req, roots });
    },
    embed: async (req = {}) => (await indexing()).runEmbed(deps, req),
    updateVectors: async (o = {}) => (await indexing()).updateVectors(deps, o),
    prune: async (req = {}) => (await indexing()).runPrune(deps, req),
  };
  return methods;
}

/** `cairn index`'s app: the index opened for writing, the indexing methods, and the problems it reports. */
export interface IndexApp extends IndexMethods {
  readonly mode: "write";
  readonly dbPath: string;
  notice(): string | null;
  problems(limit?: number): Problem[];
  close(): void;
}

/** The app over a core opened for writing (`openCore({ ...opts, mode: "write" })`). */
export function indexAppOf(core: AppCore): IndexApp {
  return {
    mode: "write",
    dbPath: core.dbPath,
    notice: () => core.opener.notice(),
    problems: (limit) => core.store().problems(limit),
    close: () => core.opener.close(),
    ...indexMethods(core),
  };
}

/** A run that found nothing to do, as the full path reports it. */
export interface UnchangedAnswer {
  dbPath: string;
  indexed: IndexResult;
  vectors: { ok: true; result: RefreshResult };
  /** The first problem lines (`IndexApp.problems`), when asked for. */
  problems: Problem[];
}

/**
 * What `cairn index` answers when nothing changed, read without loading the store (store/sqlite/stamps.ts): every
 * transcript unchanged and present, none newly missing or back, the schema current, nothing queued to bundle or
 * embed, the vectors the configured embedder's. Null whenever any of that does not hold, or another writer holds
 * the lock, or the index is a team one or not there yet: then the full path runs and finds what to do (falling
 * through is always correct, only slower). The read is one read transaction: a writer that starts after the lock
 * was seen free finds this run done before it.
 */
export function unchangedIndex(req: {
  db: string | undefined;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Absolute paths (named roots, already checked to exist) or the agents' folders. */
  roots: ReadonlyArray<string | TranscriptRoot>;
  problems?: number;
  onProgress?: (p: IndexProgress) => void;
  /** Told the transcripts the look listed, for the full path to take when it has to run (`IndexRequest.listed`). */
  onListed?: (files: readonly string[]) => void;
}): UnchangedAnswer | null {
  const { env } = req;
  const dbPath = commandDbPath(req.db, req.cwd, env); // as `openCore` finds it
  if (dbPath === ":memory:" || isPgUrl(dbPath) || !existsSync(dbPath)) return null;
  if (req.roots.some((r) => typeof r === "string" && !existsSync(r))) return null;
  // The vectors a full run would keep: the static embedder's, an installed model's, or none; any other embedder
  // takes the full path.
  const vectorsFor = (setting: string | null): { id: string | null } | null => {
    const config = chosenConfig(setting, env);
    if (config.kind === "model") {
      const model = installedModel(env, config.model);
      return model ? { id: embedderId(model) } : null;
    }
    return config.kind === "static" ? { id: STATIC_EMBEDDER_ID } : config.kind === "none" ? { id: null } : null;
  };
  try {
    if (existsSync(lockPathFor(dbPath))) return null;
    // A transcript written after the index last was: the run has work, found without opening the index and at the
    // first such file (the full path then takes this listing and stats them all again: a run with work pays little).
    // A file stamped in the future (a clock set wrong, a copy that kept its times) says nothing by its time: its
    // saved stamp decides, as for the others, or every run would take the full path.
    const written = Math.max(
      statSync(dbPath).mtimeMs,
      statSync(`${dbPath}-wal`, { throwIfNoEntry: false })?.mtimeMs ?? 0,
    );
    const started = Date.now();
    const unreadable: Unreadable[] = [];
    const files = listTranscripts(req.roots, unreadable);
    if (unreadable.length > 0) return null; // the full path reports them
    req.onListed?.(files);
    const stats: Stats[] = [];
    for (const f of files) {
      const st = statTranscript(f); // one that cannot be read throws: the full path reports it
      if (st.mtimeMs > written && st.mtimeMs <= started) return null;
      stats.push(st);
    }
    const got = readIndexStamps(dbPath, EMBEDDER_SETTING, req.problems ?? 0);
    if (got === null) return null;
    const roots = req.roots.map((r) => resolve(typeof r === "string" ? r : r.dir));
    const plan: RunPlan = { files, stats, stamps: got.stamps, roots, started, unreadable };
    const gone = idleGone(plan);
    if (gone === null || got.queued) return null;
    const embedder = vectorsFor(got.embedderSetting);
    if (embedder === null || got.vectorEmbedder !== embedder.id || (embedder.id !== null && got.pending)) return null;
    const n = plan.files.length;
    for (let i = 0; i < n; i++) req.onProgress?.({ filesDone: i + 1, filesTotal: n, bytesDone: 0, bytesTotal: 0 });
    const indexed = idleIndexResult(n, got.sessions, gone, started);
    const result = { bundled: 0, embedded: 0, pending: 0, reset: false, embedder: embedder.id, interrupted: false };
    return { dbPath, indexed, vectors: { ok: true, result }, problems: got.problems };
  } catch {
    return null;
  }
}
