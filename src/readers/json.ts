/** Small, allocation-light accessors for untrusted JSON records. */
import type { LineProblem, SourceLine } from "./types.ts";

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

export function num(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

export function obj(v: unknown): Obj | undefined {
  return isObj(v) ? v : undefined;
}

export function arr(v: unknown): unknown[] | undefined {
  return Array.isArray(v) ? v : undefined;
}

const EXCERPT_CHARS = 160;

export function excerpt(text: string): string {
  const head = text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
  // Keep problems printable: control characters from binary garbage become U+FFFD.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: replacing control characters is the point
  return head.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "\ufffd");
}

export function problem(line: SourceLine, reason: string): LineProblem {
  return { line: line.line, reason, excerpt: excerpt(line.text) };
}

/** Parses one JSONL line into an object, or describes why it cannot be used. Blank lines are neither. */
export function parseObjectLine(line: SourceLine): { value: Obj } | { problem: LineProblem } | null {
  const text = line.text;
  if (text.length === 0 || text.trim() === "") return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = looksBinary(text)
      ? "binary or non-UTF-8 data, not JSON"
      : `invalid JSON (${error instanceof Error ? error.message : "parse error"})`;
    return { problem: problem(line, reason) };
  }
  if (!isObj(value)) return { problem: problem(line, `expected a JSON object, got ${describe(value)}`) };
  return { value };
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return `a ${typeof v}`;
}

function looksBinary(text: string): boolean {
  const sample = text.slice(0, 512);
  let bad = 0;
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i);
    if (c === 0xfffd || (c < 32 && c !== 9)) bad++;
  }
  return bad > sample.length / 10;
}

/**
 * Flattens message content in the shapes the three agents use (a string, or blocks with `text`) into plain text.
 * Non-text blocks become short placeholders so their presence is not lost.
 */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  const blocks = arr(content);
  if (!blocks) return content === undefined || content === null ? "" : JSON.stringify(content);
  const parts: string[] = [];
  for (const b of blocks) {
    if (typeof b === "string") {
      parts.push(b);
      continue;
    }
    const block = obj(b);
    if (!block) continue;
    const text = str(block["text"]);
    if (text !== undefined) {
      parts.push(text);
      continue;
    }
    const type = str(block["type"]) ?? "block";
    if (type === "image" || type === "input_image") parts.push("[image]");
    else if (type === "document") parts.push("[document]");
    else if (type === "tool_reference") parts.push(`[tool ${str(block["tool_name"]) ?? ""}]`);
    else parts.push(`[${type}]`);
  }
  return parts.join("\n");
}

/** ISO time from an ISO string or a Unix-millisecond number. */
export function isoTime(v: unknown): string | null {
  if (typeof v === "string" && v.length > 0) return v;
  if (typeof v === "number" && Number.isFinite(v)) {
    const d = new Date(v);
    return Number.isNaN(d.getTime()) ? null : d.toISOString();
  }
  return null;
}

/** The line detection last parsed, and its object: each reader's `detect` asks about the same line in turn. */
let lastLine: string | null = null;
let lastRecord: Obj | null = null;

/**
 * A detection line as a JSON object, for telling formats apart by the shape of a record (its top-level keys and
 * their types) rather than by one key found anywhere in its text. Null when the line is not one whole object (a
 * line cut short at the detection limit, a pretty-printed document's first lines): `detect` then reads the text.
 */
export function recordOf(line: string): Obj | null {
  if (line === lastLine) return lastRecord;
  let value: unknown = null;
  const text = line.trim();
  if (text.startsWith("{") && text.endsWith("}"))
    try {
      value = JSON.parse(text);
    } catch {
      value = null;
    }
  lastLine = line;
  lastRecord = isObj(value) ? value : null;
  return lastRecord;
}
