/** What reading a transcript yields, shared by the line reader (read-file.ts) and the database reader. */
import type { TopologyBatch } from "../topology/normalizer-state.ts";
import type { TranscriptState } from "../topology/transcript.ts";
import type { Problem } from "../topology/types.ts";

export interface ReadPosition {
  offset: number;
  line: number;
  state: TranscriptState | null;
}

/** What one chunk yielded, and where reading stands after it (offset, line, parser state). */
export interface ReadChunk {
  batch: TopologyBatch;
  problems: Problem[];
  at: ReadPosition;
}

export interface ReadFileResult {
  /** Null when the file's format could not be recognised. */
  state: TranscriptState | null;
  /** Offset just after the last line consumed. */
  offset: number;
  line: number;
  /** Bytes after `offset` that were not consumed: a half-written line, or an unterminated invalid one. */
  pendingBytes: number;
  bytesRead: number;
}
