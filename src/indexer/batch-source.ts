/**
 * Where the indexer's prepared batches come from: parsed on the calling thread, or by a parse worker that runs
 * ahead while this thread writes. Both yield the same batches in the same order, so a file's writes and saved
 * positions do not depend on which one produced them.
 */
import type { PreparedBatch } from "../store/shared/prepare-batch.ts";
import { prepareBatch } from "../store/shared/prepare-batch.ts";
import type { TranscriptState } from "../topology/transcript.ts";
import { type ReadFileResult, type ReadPosition, readTranscriptChunks } from "./read-file.ts";

export interface ReadRequest {
  path: string;
  offset: number;
  line: number;
  state: TranscriptState | null;
  chunkBytes?: number;
  /** Scan event text for secrets (default on). */
  secrets?: boolean;
}

export interface PreparedChunk {
  prepared: PreparedBatch;
  events: number;
  problems: number;
  at: ReadPosition;
}

/**
 * Reads one file from a position, yielding each prepared chunk in file order; the caller may stop between
 * chunks (`return()`), and every chunk's position is a consistent place to resume from. A source that waits on
 * another thread yields null while it waits, so the caller can stop then too.
 */
export type BatchSource = (req: ReadRequest) => Generator<PreparedChunk | null, ReadFileResult>;

export function* inThreadSource(req: ReadRequest): Generator<PreparedChunk | null, ReadFileResult> {
  const chunks = readTranscriptChunks(req.path, {
    offset: req.offset,
    line: req.line,
    state: req.state,
    chunkBytes: req.chunkBytes,
  });
  for (;;) {
    const next = chunks.next();
    if (next.done) return next.value;
    const { batch, problems, at } = next.value;
    yield {
      prepared: prepareBatch(batch, problems, { secrets: req.secrets }),
      events: batch.events.length,
      problems: problems.length,
      at,
    };
  }
}
