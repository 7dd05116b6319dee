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

export function uiFacts(text: string | undefined): UiFacts | null {
  if (text === undefined) return null;
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return null; // being rewritten: the conversation is read without it, and again when it changes
  }
  if (!Array.isArray(doc)) return null;
  const entries = doc.filter(isObj);
  const first = entries.find((e) => typeof e["ts"] === "number");
  return {
    startedAt: first ? iso(first["ts"] as number) : null,
    events: entries.flatMap((e) => eventOf(e) ?? []),
  };
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
