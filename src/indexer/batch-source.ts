/**
 * Where the indexer's prepared batches come from: parsed on the calling thread, or by a parse worker that runs
 * ahead while this thread writes. Both yield the same batches in the same order, so a file's writes and saved
 * positions do not depend on which one produced them.
 */
import type { PreparedBatch } from "../store/prepare-batch.ts";
import { prepareBatch } from "../store/prepare-batch.ts";
import type { TranscriptState } from "../topology/transcript.ts";
import { type ReadFileResult, type ReadPosition, readTranscriptFile } from "./read-file.ts";

export interface ReadRequest {
  path: string;
  offset: number;
  line: number;
  state: TranscriptState | null;
  chunkBytes?: number;
}

export interface PreparedChunk {
  prepared: PreparedBatch;
  events: number;
  problems: number;
  at: ReadPosition;
}

/** Reads one file from a position, handing each prepared chunk to `onChunk` in file order. */
export type BatchSource = (req: ReadRequest, onChunk: (c: PreparedChunk) => void) => ReadFileResult;

export const inThreadSource: BatchSource = (req, onChunk) =>
  readTranscriptFile(req.path, {
    offset: req.offset,
    line: req.line,
    state: req.state,
    chunkBytes: req.chunkBytes,
    onBatch(batch, problems, at) {
      onChunk({ prepared: prepareBatch(batch, problems), events: batch.events.length, problems: problems.length, at });
    },
  });
