/**
 * The index as every answer reads it unless a person asked for the raw values: a `ReadonlyStore` whose texts come
 * out with their secrets already replaced by `[secret:<kind>:<fingerprint>]` markers. Redacting where the text is
 * read, whole, is what keeps the order the exits need: a snippet, a clipped label or a brief line is cut from text
 * that holds no secret any more, so no cut can leave part of a value behind (a key clipped to 45 of its 48
 * characters is no longer recognisable by any scanner).
 *
 * The indexer found the secrets and kept where each stands (`secretSpans`): an event's own spans are taken out by
 * position, checked against the finding's fingerprint; the values found anywhere in a session are taken out of
 * every text of it by value (a derived command, a tool call's typed input, a title repeat parts of a text that
 * was scanned). Everything else a store answers that is text (entity names, problem excerpts, checkpoint labels)
 * is scanned on the way out.
 */
import { fingerprint } from "../../secrets/detect.ts";
import { redactText, secretMarker } from "../../secrets/redact.ts";
import type { ReadonlyStore, SecretSpans } from "../../store/types.ts";
import type { SessionEvent } from "../../topology/types.ts";

/** Store methods whose answers hold no text of the transcripts: passed through untouched (and fast). */
const PLAIN = new Set<string>([
  "secretSpans",
  "counts",
  "sessionCount",
  "warmSearch",
  "expectLongUse",
  "getSetting",
  "vectorState",
  "vectorInfo",
  "similarities",
  "sessionEntityLinks",
  "fileStamps",
  // Token counts, model names and the ids of calls and sessions: no text of a conversation.
  "usageCalls",
  "usageRows",
  "usageGenerations",
]);

/** A known value shorter than this is not looked for in other texts (it would match by chance). */
const MIN_VALUE = 8;

interface Findings {
  /** The spans of each event that holds a secret. */
  byEvent: Map<string, SecretSpans[]>;
  /** The sessions that hold any. */
  sessions: Set<string>;
}

export interface Redaction {
  /** The store whose every answer is redacted. */
  view: ReadonlyStore;
  /**
   * A new answer begins: the findings are read again at its first read (the index may have changed since the last
   * answer of a long-lived process); within one answer they are read once.
   */
  renew(): void;
  /** A text of one session read from elsewhere (its transcript file): its findings out by value, then scanned. */
  sessionText(sessionId: string, text: string): string;
}

export function redactingView(store: ReadonlyStore): ReadonlyStore {
  return createRedaction(store).view;
}

export function createRedaction(store: ReadonlyStore): Redaction {
  let seen: readonly SecretSpans[] | null = null;
  let findings: Findings = { byEvent: new Map(), sessions: new Set() };
  const values = new Map<string, Map<string, string>>();

  let fresh = false;
  const current = (): Findings => {
    if (fresh) return findings;
    fresh = true;
    const rows = store.secretSpans();
    if (rows !== seen) {
      seen = rows;
      findings = { byEvent: new Map(), sessions: new Set() };
      values.clear();
      for (const r of rows) {
        findings.sessions.add(r.session_id);
        const list = findings.byEvent.get(r.event_id) ?? [];
        list.push(r);
        findings.byEvent.set(r.event_id, list);
      }
    }
    return findings;
  };

  /** The secret values of one session (each checked against its fingerprint), with their markers. */
  const sessionValues = (sessionId: string): Map<string, string> => {
    const f = current();
    let known = values.get(sessionId);
    if (known) return known;
    known = new Map();
    values.set(sessionId, known);
    if (!f.sessions.has(sessionId)) return known;
    for (const [eventId, rows] of f.byEvent) {
      if (rows[0]?.session_id !== sessionId) continue;
      const end = Math.max(...rows.flatMap((r) => r.spans.map(([at, len]) => at + len)));
      const text = store.getEventHead(eventId, end)?.text ?? "";
      for (const r of rows)
        for (const [at, len] of r.spans) {
          const value = text.slice(at, at + len);
          if (value.length === len && len >= MIN_VALUE && matches(value, r.secret)) known.set(value, marker(r.secret));
        }
    }
    return known;
  };

  const redactEvent = (ev: SessionEvent): SessionEvent => {
    const f = current();
    if (!f.sessions.has(ev.session_id)) return ev;
    const known = sessionValues(ev.session_id);
    const own = f.byEvent.get(ev.event_id);
    let text = withoutKnown(own ? bySpans(ev.text, own, known) : ev.text, known);
    // The indexer scans primary events only: a derived one (a command, an error line) is scanned here, short as it is.
    if (!own && ev.parent_event_id !== null) text = redactText(text);
    return {
      ...ev,
      text,
      command: ev.command === null ? null : withoutKnown(ev.command, known),
      file_path: ev.file_path === null ? null : withoutKnown(ev.file_path, known),
      meta: deep(ev.meta, (s) => withoutKnown(s, known)) as SessionEvent["meta"],
    };
  };

  const redactValue = (value: unknown): unknown => {
    if (isEvent(value)) return redactEvent(value);
    if (typeof value === "string") return redactText(value);
    if (Array.isArray(value)) return value.map(redactValue);
    if (value instanceof Map) return new Map([...value].map(([k, v]) => [k, redactValue(v)]));
    if (isSessionRow(value)) return redactSession(value);
    if (isPlainObject(value)) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = redactValue(v);
      return out;
    }
    return value;
  };

  /**
   * A session's row: its title is its first prompt (or a summary), so what was found in the session is taken out
   * of it by value too; its ids, paths and times are not text of the transcript and pass as they are (a listing
   * of every session stays cheap).
   */
  const redactSession = <T extends { session_id: string; title: string | null; meta?: unknown }>(row: T): T => {
    const known = current().sessions.has(row.session_id) ? sessionValues(row.session_id) : null;
    const title = row.title === null ? null : redactText(known ? withoutKnown(row.title, known) : row.title);
    const meta = row.meta === undefined ? undefined : deep(row.meta, (s) => redactText(s));
    return { ...row, title, ...(meta === undefined ? {} : { meta }) };
  };

  const view = new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== "function" || typeof prop !== "string" || PLAIN.has(prop)) return value;
      return (...args: unknown[]) => redactValue((value as (...a: unknown[]) => unknown).apply(target, args));
    },
  });
  const sessionText = (sessionId: string, text: string) =>
    redactText(current().sessions.has(sessionId) ? withoutKnown(text, sessionValues(sessionId)) : text);
  const renew = () => {
    fresh = false;
  };
  return { view, sessionText, renew };
}

function marker(secret: string): string {
  const [, kind = "secret", fp = ""] = secret.split(":");
  return secretMarker({ kind, fingerprint: fp });
}

function matches(value: string, secret: string): boolean {
  return secret.endsWith(`:${fingerprint(value)}`);
}

/**
 * The event's own findings out of its text by position. A span whose value no longer hashes to its finding (the
 * text was purged or rewritten since) sends the text to the scanner instead; so does one the read cut short (a
 * head of the text) unless what is left of it begins the finding's known value, which is then taken out as far as
 * the text goes.
 */
function bySpans(text: string, rows: readonly SecretSpans[], known: ReadonlyMap<string, string>): string {
  const spans = rows
    .flatMap((r) => r.spans.map(([at, len]) => ({ at, end: at + len, secret: r.secret })))
    .sort((a, b) => a.at - b.at);
  let out = "";
  let from = 0;
  for (const s of spans) {
    if (s.at < from || s.at >= text.length) continue;
    const whole = s.end <= text.length;
    if (whole ? !matches(text.slice(s.at, s.end), s.secret) : !begins(text.slice(s.at), marker(s.secret), known))
      return redactText(text);
    out += text.slice(from, s.at) + marker(s.secret);
    from = Math.min(s.end, text.length);
  }
  return out + text.slice(from);
}

/** Whether `tail` is the beginning of a known value of the finding whose marker is `mark`. */
function begins(tail: string, mark: string, known: ReadonlyMap<string, string>): boolean {
  for (const [value, m] of known) if (m === mark && value.startsWith(tail)) return true;
  return false;
}

/**
 * Every known value out of a text, and a value's beginning where the text ends in it (a head read of a derived
 * event can stop inside a value it repeats).
 */
function withoutKnown(text: string, known: ReadonlyMap<string, string>): string {
  if (known.size === 0) return text;
  let out = text;
  for (const [value, mark] of known) {
    if (out.includes(value)) out = out.split(value).join(mark);
    for (let n = value.length - 1; n >= MIN_VALUE; n--)
      if (out.endsWith(value.slice(0, n))) {
        out = out.slice(0, out.length - n) + mark;
        break;
      }
  }
  return out;
}

function deep(value: unknown, fn: (s: string) => string): unknown {
  if (typeof value === "string") return fn(value);
  if (Array.isArray(value)) return value.map((v) => deep(v, fn));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = deep(v, fn);
    return out;
  }
  return value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function isSessionRow(value: unknown): value is { session_id: string; title: string | null; meta?: unknown } {
  return (
    isPlainObject(value) &&
    typeof value["session_id"] === "string" &&
    "title" in value &&
    (typeof value["title"] === "string" || value["title"] === null) &&
    typeof value["provider"] === "string"
  );
}

function isEvent(value: unknown): value is SessionEvent {
  return (
    isPlainObject(value) &&
    typeof value["event_id"] === "string" &&
    typeof value["session_id"] === "string" &&
    typeof value["text"] === "string" &&
    typeof value["event_type"] === "string"
  );
}
