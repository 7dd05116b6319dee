/**
 * Reads a transcript kept as one JSON file per event in a folder (`Reader.eventFolder`): the folder's event files in
 * their order, each file's text one line, in bounded batches. Like a database, it is read whole whenever the
 * transcript's file or one of the event files changes (see `statTranscript`); the line numbers are the files'
 * places in that order.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { eventFiles } from "../readers/event-folder.ts";
import type { SourceLine } from "../readers/types.ts";
import { parseTranscript, type TranscriptState } from "../topology/transcript.ts";
import type { Problem } from "../topology/types.ts";
import type { ReadChunk, ReadFileResult } from "./read-types.ts";
import { fsReason } from "./scan.ts";

const FILES_PER_BATCH = 2000;
const BYTES_PER_BATCH = 4 * 1024 * 1024;

export function* readEventFolder(
  path: string,
  folder: string,
  start: TranscriptState,
): Generator<ReadChunk, ReadFileResult> {
  let state = start;
  let names: string[];
  try {
    names = eventFiles(readdirSync(folder));
  } catch {
    names = []; // no event yet: the transcript is its state file alone
  }
  let total = statSync(path).size;
  let line = 1;
  let pending = 0;
  let lines: SourceLine[] = [];
  let held = 0;
  let problems: Problem[] = [];
  // The offset is the transcript's whole size only once every file is in: a read cut short starts over.
  const chunk = (last: boolean): ReadChunk => {
    const parsed = parseTranscript(lines, state);
    state = parsed.state;
    const at = { offset: last ? total : 0, line, state };
    const out = { batch: parsed.batch, problems: [...problems, ...parsed.problems], at };
    lines = [];
    held = 0;
    problems = [];
    return out;
  };
  for (const [i, name] of names.entries()) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(folder, name));
    } catch (error) {
      problems.push({ source_file: path, source_line: line++, reason: `${name}: ${fsReason(error)}`, excerpt: "" });
      continue;
    }
    const text = bytes.toString("utf8");
    // The writer fills an event file in place: a last file that is not whole JSON yet waits for the next read.
    if (i === names.length - 1 && !isJson(text)) {
      pending = bytes.length;
      break;
    }
    total += bytes.length;
    lines.push({ text, line: line++ });
    held += bytes.length;
    if (lines.length >= FILES_PER_BATCH || held >= BYTES_PER_BATCH) yield chunk(false);
  }
  yield chunk(true);
  return { state, offset: total, line, pendingBytes: pending, bytesRead: total + pending };
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
