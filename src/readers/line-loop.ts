/**
 * What every line-based reader shares: the loop over lines, JSON decoding with a reported problem for a bad line,
 * a rule that cannot stop the file (an unexpected shape is reported and the next line read), and the handling of
 * record types a newer client adds: each is reported once per type per file, and the text it carries is kept in
 * the session's `meta.unknown_records`, never turned into a message, a prompt or a tool result.
 */
import { errorMessage } from "../common/errors.ts";
import { contentText, isObj, type Obj, parseObjectLine, problem, str } from "./json.ts";
import type { LineProblem, ParseOutput, RawRecord, SourceLine } from "./types.ts";

/** State every line reader carries, beside its own fields. */
export interface LineState {
  sessionId: string | null;
  /** Unknown record types seen in this file → where first seen and the text the first one carried. */
  unknown: Record<string, UnknownRecord>;
}

export interface UnknownRecord {
  line: number;
  text?: string;
}

/** The records and problems one parse call produces, handed to a reader's per-line rule. */
export interface LineSink {
  out: RawRecord[];
  problems: LineProblem[];
}

const UNKNOWN_TYPES_KEPT = 64;
const UNKNOWN_TEXT_CHARS = 2000;

/** Runs `readLine` over every JSON object line; `raw` sees a line first and may take it (a whole-file JSON). */
export function parseLines<S extends LineState>(
  lines: Iterable<SourceLine>,
  s: S,
  readLine: (s: S, o: Obj, line: SourceLine, sink: LineSink) => void,
  raw?: (s: S, line: SourceLine, sink: LineSink) => boolean,
): ParseOutput<S> {
  s.unknown ??= {};
  const sink: LineSink = { out: [], problems: [] };
  for (const line of lines) {
    if (raw?.(s, line, sink)) continue;
    const parsed = parseObjectLine(line);
    if (parsed === null) continue;
    if ("problem" in parsed) {
      sink.problems.push(parsed.problem);
      continue;
    }
    try {
      readLine(s, parsed.value, line, sink);
    } catch (error) {
      // A record shape no rule anticipated must never stop the file: report it and go on.
      sink.problems.push(problem(line, `unreadable record (${errorMessage(error)})`));
    }
  }
  return { records: sink.out, problems: sink.problems, state: s };
}

/**
 * A record type (or event, or item) this reader does not know. The first of each type in a file is a problem,
 * and the first text any of them carries is kept in the session's meta.
 */
export function unknownRecord(
  s: LineState,
  label: string,
  o: Obj,
  line: SourceLine,
  ts: string | null,
  sink: LineSink,
): void {
  const seen = s.unknown[label];
  const text = seen?.text === undefined ? textOfUnknown(o) : undefined;
  if (seen) {
    if (text !== undefined) seen.text = text;
  } else {
    sink.problems.push(problem(line, label === "" ? "record without a type" : `unknown record type '${label}'`));
    if (Object.keys(s.unknown).length >= UNKNOWN_TYPES_KEPT) return;
    s.unknown[label] = { line: line.line, ...(text !== undefined ? { text } : {}) };
  }
  if (s.sessionId !== null && (seen === undefined || text !== undefined))
    sink.out.push({
      kind: "session",
      line: line.line,
      ts,
      key: "session",
      sessionId: s.sessionId,
      meta: { unknown_records: structuredClone(s.unknown) },
    });
}

function textOfUnknown(o: Obj): string | undefined {
  const message = o["message"];
  const text =
    str(o["content"]) ??
    str(o["text"]) ??
    (typeof message === "string" ? message : isObj(message) ? contentText(message["content"]) : undefined);
  if (text === undefined || text.trim() === "") return undefined;
  return text.length > UNKNOWN_TEXT_CHARS ? `${text.slice(0, UNKNOWN_TEXT_CHARS)}…` : text;
}

/**
 * The JSON of a format kept as one document rewritten in place (`wholeFile`), which comes whole as one line; a
 * document that does not parse (cut short while the agent rewrote it, or damaged) is a problem, and the file is
 * read again once it changes. Null then.
 */
export function wholeDocument(line: SourceLine, sink: LineSink): { doc: unknown } | null {
  try {
    return { doc: JSON.parse(line.text) };
  } catch (error) {
    const why = error instanceof Error ? error.message : "parse error";
    sink.problems.push(problem(line, `invalid JSON (${why}); read again when the file changes`));
    return null;
  }
}
