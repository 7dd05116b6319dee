/**
 * One transcript file, read incrementally: a reader for its format plus the normalizer, with one resumable state
 * that the indexer saves at every complete line.
 */
import { detectDatabaseReader, detectReader, readerFor } from "../readers/detect.ts";
import type { LineProblem, RawRecord, Reader, SourceLine } from "../readers/types.ts";
import { normalize } from "./normalize.ts";
import { initialNormalizerState, type NormalizerState, type TopologyBatch } from "./normalizer-state.ts";
import type { Problem, Provider } from "./types.ts";
import { TOPOLOGY_VERSION } from "./version.ts";

export interface TranscriptState {
  provider: Provider;
  /** The reader, when its provider has several (see `Reader.id`). */
  readerId?: string;
  /** The reader's version when the state was saved (absent in states saved before readers had versions). */
  readerVersion?: number;
  /** `TOPOLOGY_VERSION` when the state was saved (absent before version 2). */
  topologyVersion?: number;
  /** The file is read whole each time it changes (see `Reader.wholeFile`, `Reader.database`, `Reader.eventFolder`). */
  wholeFile?: boolean;
  reader: unknown;
  /** The normalizer of the session records are going to now. */
  topology: NormalizerState;
  /**
   * The other sessions of a file that holds several (a Copilot CLI subagent inside its parent's events, an
   * OpenCode database): a `session` record naming another session moves the reading there.
   */
  others?: Record<string, NormalizerState>;
}

export interface TranscriptParse {
  batch: TopologyBatch;
  problems: Problem[];
  state: TranscriptState;
}

/**
 * Reads a small file beside a transcript that its reader asks for (`Reader.context`): its text, or null when it is
 * not there. The indexer's file access; without one, readers start from the transcript alone.
 */
export type ReadContextFile = (path: string, asBytes?: boolean) => string | null;

export function startTranscript(
  path: string,
  headLines: readonly string[],
  readContext?: ReadContextFile,
): TranscriptState | null {
  return stateFor(detectReader(path, headLines), path, readContext);
}

/** The state for an SQLite database with these tables, or null when no reader knows them. */
export function startDatabaseTranscript(path: string, tables: readonly string[]): TranscriptState | null {
  return stateFor(detectDatabaseReader(tables), path);
}

/** The reader's query when the state is a database's. */
export function databaseQuery(state: TranscriptState): string | undefined {
  return readerFor(state.provider, state.readerId).database?.query;
}

/** The folder of per-event files the transcript at `path` is read from, when the state's format keeps one. */
export function transcriptEventFolder(state: TranscriptState, path: string): string | null {
  return readerFor(state.provider, state.readerId).eventFolder?.(path) ?? null;
}

function stateFor(reader: Reader<unknown> | null, path: string, readContext?: ReadContextFile): TranscriptState | null {
  if (!reader) return null;
  const context = readContext && reader.context ? contextOf(reader, path, readContext) : {};
  return {
    provider: reader.provider,
    ...(reader.id ? { readerId: reader.id } : {}),
    readerVersion: reader.version,
    topologyVersion: TOPOLOGY_VERSION,
    ...(reader.wholeFile?.(path) || reader.database || reader.eventFolder?.(path) ? { wholeFile: true } : {}),
    reader: reader.initialState(path, context),
    topology: initialNormalizerState(reader.provider, path),
  };
}

/** How many times a reader is asked for files named by the ones it was given (a pointer, a manifest, its parts). */
const CONTEXT_ROUNDS = 4;

/** The files a reader asks for beside a transcript, each asked for once, following what the files read name. */
function contextOf(reader: Reader<unknown>, path: string, readContext: ReadContextFile): Record<string, string> {
  const context: Record<string, string> = {};
  const asked = new Set<string>();
  for (let round = 0; round < CONTEXT_ROUNDS; round++) {
    const files = reader.context!(path, context).filter((f) => !asked.has(f));
    if (files.length === 0) break;
    for (const file of files) {
      asked.add(file);
      const text = readContext(file, reader.contextAsBytes?.(file) === true);
      if (text !== null) context[file] = text;
    }
  }
  return context;
}

/**
 * Whether reading can resume from a saved state: the same reader version, and a file that is read line by line.
 * Otherwise the file is read again from its start.
 */
export function canResume(state: TranscriptState | null): state is TranscriptState {
  if (state === null || state.wholeFile === true) return false;
  return isCurrent(state);
}

/** Whether a saved state was written by this reader and normalizer version; if not, the file is read again. */
export function isCurrent(state: TranscriptState): boolean {
  return (
    state.readerVersion === readerFor(state.provider, state.readerId).version &&
    state.topologyVersion === TOPOLOGY_VERSION
  );
}

export function parseTranscript(lines: Iterable<SourceLine>, state: TranscriptState): TranscriptParse {
  const reader = readerFor(state.provider, state.readerId);
  const read = reader.parse(lines, state.reader);
  const { batch, topology, others } = normalizeSessions(read.records, state);
  return {
    batch,
    problems: read.problems.map((p: LineProblem) => ({
      source_file: state.topology.sourceFile,
      source_line: p.line,
      reason: p.reason,
      excerpt: p.excerpt,
    })),
    state: { ...state, reader: read.state, topology, ...(others ? { others } : {}) },
  };
}

/** Normalizes records in runs, one per session: a session record naming another session starts a run there. */
function normalizeSessions(
  records: RawRecord[],
  state: TranscriptState,
): { batch: TopologyBatch; topology: NormalizerState; others: Record<string, NormalizerState> | undefined } {
  let current = state.topology;
  let others = state.others;
  const batches: TopologyBatch[] = [];
  let start = 0;
  const flush = (end: number) => {
    if (end <= start) return;
    const res = normalize(records.slice(start, end), current);
    batches.push(res.batch);
    current = res.state;
    start = end;
  };
  let at = current.session?.session_id;
  records.forEach((r, i) => {
    if (r.kind !== "session" || r.sessionId === at) return;
    if (at === undefined) {
      at = r.sessionId;
      return;
    }
    flush(i);
    // A file read whole (a database, its rows session by session) never returns to a session it left, and is read
    // from scratch next time: keeping every session's state would only make the saved state grow with the file.
    if (!state.wholeFile) others = { ...others, [at]: current };
    current = others?.[r.sessionId] ?? initialNormalizerState(state.provider, state.topology.sourceFile);
    if (others) {
      const { [r.sessionId]: _, ...rest } = others;
      others = rest;
    }
    at = r.sessionId;
  });
  flush(records.length);
  if (batches.length === 1) return { batch: batches[0]!, topology: current, others };
  const batch: TopologyBatch = { sessions: [], events: [], edges: [], entities: [], usage: [] };
  for (const b of batches) {
    batch.sessions.push(...b.sessions);
    batch.events.push(...b.events);
    batch.edges.push(...b.edges);
    batch.entities.push(...b.entities);
    batch.usage.push(...b.usage);
  }
  // One line may hold calls of several sessions (a document read whole with its subagents' histories): each run
  // numbered its own from 0, so they are numbered again across the runs to stay apart.
  const seen = new Map<number, number>();
  for (const u of batch.usage) {
    const seq = seen.get(u.source_line) ?? 0;
    u.seq = seq;
    seen.set(u.source_line, seq + 1);
  }
  return { batch, topology: current, others };
}
