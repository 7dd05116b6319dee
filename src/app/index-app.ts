/**
 * The writing side of the app that goes through the indexer: indexing, watching, embedding, pruning. `createCairn`
 * spreads these methods into its write mode; `createIndexApp` is the same methods with only the open and the problem
 * list beside them, for `cairn index`, which then loads neither search, timeline, secrets nor resume code (each
 * module of the bundle costs a new process about 0.4 ms: docs/performance.md, fifth round).
 */
import { homedir } from "node:os";
import { resolve } from "node:path";
import type { EmbedderConfig } from "../embedders/types.ts";
import type { IndexResult } from "../indexer/indexer.ts";
import { defaultRoots, type TranscriptRoot } from "../readers/roots.ts";
import type { Problem } from "../topology/types.ts";
import { type AppCore, type CairnOptions, openCore } from "./core.ts";
import type {
  EmbedRequest,
  GoneFile,
  IndexAnswer,
  IndexRequest,
  runEmbed,
  VectorOutcome,
  WatchRequest,
} from "./indexing.ts";

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
  /** Indexes these files now (nothing embedded), so what follows reads what was just written. */
  refresh(paths: readonly string[]): Promise<IndexResult | null>;
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
    defaultRoots: () => defaultRoots(env, env["HOME"] || homedir()),
    async index(req = {}) {
      const { checkRoots, runIndex } = await indexing();
      const roots = core.absolute(req.roots ?? methods.defaultRoots());
      checkRoots(roots);
      return runIndex(deps, roots, req);
    },
    async refresh(paths) {
      const { checkRoots, runIndex } = await indexing();
      const roots = paths.map((p) => resolve(cwd, p));
      checkRoots(roots);
      return (await runIndex(deps, roots, { embed: false, parallel: false, waitMs: 30_000 })).indexed;
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

export function createIndexApp(opts: CairnOptions = {}): IndexApp {
  const core = openCore({ ...opts, mode: "write" });
  return {
    mode: "write",
    dbPath: core.dbPath,
    notice: () => core.opener.notice(),
    problems: (limit) => core.store().problems(limit),
    close: () => core.opener.close(),
    ...indexMethods(core),
  };
}
