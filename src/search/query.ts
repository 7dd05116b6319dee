/**
 * The search language: free text (words, "quoted phrases", OR, -exclusions) plus prefixes that pick a kind of
 * evidence (`decision:`, `outcome:` (done, failed, abandoned, superseded, open), `error:`, `test:`, `tool:`, `resume:`, `file:`, `cmd:`) and filters (`provider:`,
 * `project:`, `session:`, `since:`, `until:`, `kind:`). Parsing is pure; a malformed query is a QueryError that
 * names the offending part, never an SQL error.
 */
import { CairnError } from "../common/errors.ts";
import { PROVIDERS } from "../readers/agents.ts";
import { EVENT_TYPES, type EventType, type Provider } from "../topology/types.ts";
import { takeRecency } from "./recency.ts";

export const PREFIXES = ["decision", "outcome", "error", "test", "tool", "resume", "file", "cmd"] as const;
export type Prefix = (typeof PREFIXES)[number];
/** `machine:` and `user:` narrow to where a session was indexed from: a team index (PostgreSQL) records both. */
export const FILTERS = ["provider", "project", "session", "since", "until", "kind", "machine", "user"] as const;
export type Filter = (typeof FILTERS)[number];

/** A malformed query: its message names the bad part (surfaces show it as "bad query: …"). */
export class QueryError extends CairnError {
  override name = "QueryError";
  readonly part: string;
  constructor(part: string, message: string) {
    super("bad_query", `${message} (in '${part}')`);
    this.part = part;
  }
}

export interface TextTerm {
  /** The words as typed (a phrase keeps its words in order). */
  text: string;
  phrase: boolean;
  negated: boolean;
  /** Joined to the previous term with OR instead of AND. */
  or: boolean;
}

export interface ParsedQuery {
  terms: TextTerm[];
  prefixes: Array<{ prefix: Prefix; value: string }>;
  providers: Provider[];
  projects: string[];
  machines?: string[];
  users?: string[];
  sessions: string[];
  since?: string;
  until?: string;
  kinds: EventType[];
  /** `kind:secret`: events that hold a secret (any event type). */
  secrets?: boolean;
  /** The query asked for the latest state ("last", "at the end"): later events of a session rank first. */
  recent?: boolean;
}

/** Kind names people type, mapped to event kinds. */
const KIND_ALIASES: Record<string, EventType> = {
  user: "user_message",
  prompt: "user_message",
  assistant: "assistant_message",
  reply: "assistant_message",
  call: "tool_call",
  tool: "tool_call",
  result: "tool_result",
  output: "tool_result",
  file: "file_action",
  command: "command",
  cmd: "command",
  test: "test_result",
  check: "test_result",
  error: "error",
  decision: "decision",
  resume: "resume_point",
  checkpoint: "resume_point",
};

interface Token {
  raw: string;
  key: string | null;
  value: string;
  quoted: boolean;
}

/** Splits on whitespace, keeping "quoted strings" (also after `key:`) together. */
function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    while (i < input.length && /\s/.test(input[i]!)) i++;
    if (i >= input.length) break;
    const start = i;
    let key: string | null = null;
    const m = /^(-?[a-z]+):/i.exec(input.slice(i));
    if (m && (PREFIXES as readonly string[]).concat(FILTERS).includes(m[1]!.replace(/^-/, "").toLowerCase())) {
      key = m[1]!;
      i += m[0].length;
    }
    let value = "";
    let quoted = false;
    if (input[i] === '"') {
      const end = input.indexOf('"', i + 1);
      if (end === -1) throw new QueryError(input.slice(start), "unclosed quote");
      value = input.slice(i + 1, end);
      quoted = true;
      i = end + 1;
    } else {
      while (i < input.length && !/\s/.test(input[i]!)) i++;
      value = input.slice(key ? start + key.length + 1 : start, i);
    }
    tokens.push({ raw: input.slice(start, i), key, value, quoted });
  }
  return tokens;
}

/**
 * A `file:` value as the index writes paths (topology/paths.ts): `/` for `\\`, a drive as `/C:/`, `~` as the home
 * folder (any folder, unknown), and a relative path's leading `./` or `../` as the `/` before its first folder,
 * since it is the end of an absolute path.
 */
export function fileValue(value: string, home?: string): string {
  let v = value.replace(/\\/g, "/");
  if (/^[A-Za-z]:\//.test(v)) v = `/${v}`;
  if (v === "~" || v.startsWith("~/")) v = `${home ? home.replace(/\/+$/, "") : ""}${v.slice(1)}` || "/";
  return v
    .replace(/^(\.\.?\/)+/, "/")
    .replace(/\/(\.\/)+/g, "/")
    .replace(/\/{2,}/g, "/");
}

export interface ParseOptions {
  /** The user's home folder, for `file:~/…`. */
  home?: string;
}

export function parseQuery(input: string, now: Date, opts: ParseOptions = {}): ParsedQuery {
  const q: ParsedQuery = { terms: [], prefixes: [], providers: [], projects: [], sessions: [], kinds: [] };
  let pendingOr = false;
  for (const t of tokenize(input)) {
    if (t.key === null) {
      if (!t.quoted && t.value === "OR") {
        if (q.terms.length === 0) throw new QueryError(t.raw, "OR needs a term on each side");
        pendingOr = true;
        continue;
      }
      const negated = !t.quoted && t.value.startsWith("-") && t.value.length > 1;
      const text = negated ? t.value.slice(1) : t.value;
      if (!/[\p{L}\p{N}]/u.test(text)) throw new QueryError(t.raw, "a search term needs at least one letter or digit");
      q.terms.push({ text, phrase: t.quoted, negated, or: pendingOr });
      pendingOr = false;
      continue;
    }
    if (t.key.startsWith("-")) throw new QueryError(t.raw, `'${t.key.slice(1)}:' cannot be negated`);
    const key = t.key.toLowerCase();
    if ((PREFIXES as readonly string[]).includes(key)) {
      q.prefixes.push({ prefix: key as Prefix, value: key === "file" ? fileValue(t.value, opts.home) : t.value });
      continue;
    }
    const values = t.value
      .split(",")
      .map((v) => v.trim())
      .filter((v) => v.length > 0);
    if (values.length === 0) throw new QueryError(t.raw, `'${key}:' needs a value`);
    switch (key as Filter) {
      case "provider":
        for (const v of values) {
          const p = v.toLowerCase() === "claude-code" ? "claude" : v.toLowerCase();
          if (!(PROVIDERS as readonly string[]).includes(p))
            throw new QueryError(t.raw, `unknown provider '${v}' (use ${PROVIDERS.join(", ")})`);
          q.providers.push(p as Provider);
        }
        break;
      case "project":
        q.projects.push(...values);
        break;
      case "session":
        q.sessions.push(...values);
        break;
      case "machine":
        q.machines = [...(q.machines ?? []), ...values];
        break;
      case "user":
        q.users = [...(q.users ?? []), ...values];
        break;
      case "kind":
        for (const v of values) {
          if (/^secrets?$/i.test(v)) {
            q.secrets = true;
            continue;
          }
          const k = (EVENT_TYPES as readonly string[]).includes(v) ? (v as EventType) : KIND_ALIASES[v.toLowerCase()];
          if (!k) throw new QueryError(t.raw, `unknown kind '${v}' (use ${EVENT_TYPES.join(", ")}, secret)`);
          q.kinds.push(k);
        }
        break;
      case "since":
        q.since = parseTime(values[0]!, now, t.raw);
        break;
      case "until":
        q.until = parseTime(values[0]!, now, t.raw, true);
        break;
    }
  }
  if (pendingOr) throw new QueryError("OR", "OR needs a term on each side");
  const recency = takeRecency(q.terms);
  q.terms = recency.terms;
  if (recency.recent) q.recent = true;
  if (q.since && q.until && q.since > q.until)
    throw new QueryError(`since:${q.since} until:${q.until}`, "since is after until");
  return q;
}

/**
 * Dates: `2026-11-02`, `2026-11-02T10:00`, full ISO times, relative `30m`, `12h`, `7d`, `2w`, and `today`,
 * `yesterday`. An `until:` date without a time means the end of that day.
 */
export function parseTime(value: string, now: Date, part: string, endOfDay = false): string {
  const v = value.toLowerCase();
  const day = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  if (v === "today") return (endOfDay ? new Date(day(now).getTime() + 86_399_999) : day(now)).toISOString();
  if (v === "yesterday") {
    const y = new Date(day(now).getTime() - 86_400_000);
    return (endOfDay ? new Date(y.getTime() + 86_399_999) : y).toISOString();
  }
  const rel = /^(\d+)(m|h|d|w)$/.exec(v);
  if (rel) {
    const unit = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[rel[2] as "m" | "h" | "d" | "w"];
    return new Date(now.getTime() - Number(rel[1]) * unit).toISOString();
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const d = new Date(`${value}T00:00:00.000Z`);
    if (Number.isNaN(d.getTime())) throw new QueryError(part, `not a date: '${value}'`);
    return (endOfDay ? new Date(d.getTime() + 86_399_999) : d).toISOString();
  }
  const d = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(d.getTime())) {
    throw new QueryError(part, `not a time: '${value}' (use 2026-11-02, 2026-11-02T10:00, 7d, 12h, today)`);
  }
  return d.toISOString();
}
