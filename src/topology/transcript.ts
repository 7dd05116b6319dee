/**
 * One transcript file, read incrementally: a reader for its format plus the normalizer, with one resumable state
 * that the indexer saves at every complete line.
 */
import { detectReader, readerFor } from "../readers/detect.ts";
import type { LineProblem, SourceLine } from "../readers/types.ts";
import { initialNormalizerState, type NormalizerState, normalize, type TopologyBatch } from "./normalize.ts";
import type { Problem, Provider } from "./types.ts";

export interface TranscriptState {
  provider: Provider;
  /** The reader's version when the state was saved (absent in states saved before readers had versions). */
  readerVersion?: number;
  /** The file is read whole each time it changes (see `Reader.wholeFile`). */
  wholeFile?: boolean;
  reader: unknown;
  topology: NormalizerState;
}

export interface TranscriptParse {
  batch: TopologyBatch;
  problems: Problem[];
  state: TranscriptState;
}

export function startTranscript(path: string, headLines: readonly string[]): TranscriptState | null {
  const reader = detectReader(path, headLines);
  if (!reader) return null;
  return {
    provider: reader.provider,
    readerVersion: reader.version,
    ...(reader.wholeFile?.(path) ? { wholeFile: true } : {}),
    reader: reader.initialState(path),
    topology: initialNormalizerState(reader.provider, path),
  };
}

/**
 * Whether reading can resume from a saved state: the same reader version, and a file that is read line by line.
 * Otherwise the file is read again from its start.
 */
export function canResume(state: TranscriptState | null): state is TranscriptState {
  if (state === null || state.wholeFile === true) return false;
  return state.readerVersion === readerFor(state.provider).version;
}

export function parseTranscript(lines: Iterable<SourceLine>, state: TranscriptState): TranscriptParse {
  const reader = readerFor(state.provider);
  const read = reader.parse(lines, state.reader);
  const { batch, state: topology } = normalize(read.records, state.topology);
  return {
    batch,
    problems: read.problems.map((p: LineProblem) => ({
      source_file: state.topology.sourceFile,
      source_line: p.line,
      reason: p.reason,
      excerpt: p.excerpt,
    })),
    state: { ...state, reader: read.state, topology },
  };
}
