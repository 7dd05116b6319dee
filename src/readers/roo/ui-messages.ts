/**
 * What Roo Code's `ui_messages.json` (the chat panel's list of `say`/`ask` entries, each with a `ts` in
 * milliseconds) says that the conversation file does not: when the task began, each time the context was condensed
 * (`say: condense_context`, with the summary), and the harness's own failures (an API request that failed, the
 * mistake limit). Older releases drop the messages a condense replaced from the conversation, so only this list
 * still counts every condense. Everything else in it repeats the conversation for display and is not read.
 */
import { isObj, type Obj, obj, str } from "../json.ts";

export interface UiEvent {
  ts: string;
  kind: "compaction" | "error" | "warning";
  text: string;
}

export interface UiFacts {
  startedAt: string | null;
  events: UiEvent[];
}

/** `ask` entries that mean the harness stopped on a failure, with what the entry's text says. */
const FAILED_ASKS = new Set(["api_req_failed", "mistake_limit_reached"]);

/**
 * The list is mostly command output and file contents the conversation holds too; rather than decode all of it, only
 * the entries that matter are found by their `say`/`ask` (a quoted key cannot occur unescaped inside a string) and
 * decoded alone. Roo writes each entry starting with its `ts`.
 */
const WANTED = /"(?:say":"(?:condense_context|error)|ask":"(?:api_req_failed|mistake_limit_reached))"/g;

/**
 * The facts of the list, given as its bytes one character per byte (`Reader.contextAsBytes`): decoding megabytes of
 * output as UTF-8 cost more than reading the whole conversation. Every marker and brace is ASCII, and no byte of a
 * multi-byte character is, so the list is searched as it is and only the entries kept are decoded.
 */
export function uiFacts(bytes: string | undefined): UiFacts | null {
  if (bytes === undefined) return null;
  const head = listHead(bytes);
  // A list that starts with anything but ASCII (a byte order mark) is read as the text it decodes to.
  const text = head === null ? Buffer.from(bytes, "latin1").toString("utf8") : bytes;
  if (!/^\s*\[/.test(head ?? text)) return null;
  const first = /^\s*\[\s*\{"ts":(\d+)/.exec(head ?? text);
  const decode = head === null ? (s: string) => s : (s: string) => Buffer.from(s, "latin1").toString("utf8");
  const starts = new Set<number>();
  for (const m of text.matchAll(WANTED)) {
    const start = text.lastIndexOf('{"ts":', m.index);
    if (start !== -1) starts.add(start);
  }
  const events: UiEvent[] = [];
  for (const start of starts) {
    const entry = entryAt(text, start, decode);
    const e = entry ? eventOf(entry) : null;
    if (e) events.push(e);
  }
  return { startedAt: first ? iso(Number(first[1])) : null, events };
}

/**
 * The start of the list up to the first entry's `ts`, when all of it is ASCII (the same characters in either
 * reading); null when a byte beyond ASCII comes first.
 */
function listHead(bytes: string): string | null {
  const ts = bytes.indexOf('{"ts":');
  let end = ts === -1 ? bytes.length : ts + 6;
  while (ts !== -1 && end < bytes.length && bytes.charCodeAt(end) >= 48 && bytes.charCodeAt(end) <= 57) end++;
  for (let i = 0; i < end; i++) if (bytes.charCodeAt(i) > 127) return null;
  return bytes.slice(0, end);
}

/** The JSON object that starts at `start`: to its matching brace, outside strings. */
function entryAt(text: string, start: number, decode: (s: string) => string): Obj | null {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123) depth++;
    else if (c === 125 && --depth === 0) {
      try {
        const o: unknown = JSON.parse(decode(text.slice(start, i + 1)));
        return isObj(o) ? o : null;
      } catch {
        return null;
      }
    }
  }
  return null; // cut short while Roo rewrote it: read again when the conversation changes
}

function eventOf(e: Obj): UiEvent | null {
  if (typeof e["ts"] !== "number" || e["partial"] === true) return null;
  const ts = iso(e["ts"]);
  if (e["say"] === "condense_context") {
    const summary = str(obj(e["contextCondense"])?.["summary"]) ?? "";
    return { ts, kind: "compaction", text: summary };
  }
  // A tool's failure is also in its result in the conversation: a `say: error` is kept, but not as a second failure.
  if (e["say"] === "error") return { ts, kind: "warning", text: str(e["text"]) ?? "" };
  const ask = str(e["ask"]);
  if (e["type"] === "ask" && ask && FAILED_ASKS.has(ask))
    return { ts, kind: "error", text: `${ask.replace(/_/g, " ")}: ${str(e["text"]) ?? ""}`.trim() };
  return null;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
