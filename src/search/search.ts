/**
 * `cairn search`: the parsed query becomes a store query (BM25 over the FTS index, filters on columns), and each
 * hit gets its session's project, a highlighted snippet and its evidence chain (an error ← the tool result it came
 * from ← the call ← the assistant message that made it).
 */
import type { EventQuery, ReadonlyStore, SessionRow } from "../store/types.ts";
import { derivedEventId } from "../topology/ids.ts";
import { OUTCOMES } from "../topology/outcomes.ts";
import type { EventType, SessionEvent } from "../topology/types.ts";
import { answersIntent, intentOf } from "./intent.ts";
import { type ParsedQuery, parseQuery, QueryError, type TextTerm } from "./query.ts";
import { latestFirst } from "./recency.ts";
import { snippetOf } from "./snippet.ts";
import { buildMatch, ftsTokens } from "./text-match.ts";

export interface EvidenceLink {
  event_id: string;
  event_type: EventType;
  text: string;
}

export interface SearchHit {
  event_id: string;
  session_id: string;
  provider: string;
  project: string | null;
  timestamp: string | null;
  event_type: EventType;
  status: string | null;
  score: number | null;
  snippet: string;
  /** From the hit upwards: what it came from, up to the message that started it. */
  evidence: EvidenceLink[];
  source_file: string;
  source_line: number;
  /** The transcript the hit was read from is gone from disk (the index keeps it until 'cairn prune'). */
  source_gone: boolean;
  /** Set when the hit has only some of the query's words (found after requiring all of them found too few). */
  partial?: true;
  /** A request's outcome, once the next request told how it went (done, failed, abandoned, superseded). */
  outcome?: { outcome: string; why: string; event_id: string };
}

export interface SearchOptions {
  limit?: number;
  now?: Date;
}

export interface SearchResult {
  query: string;
  hits: SearchHit[];
}

const PREFIX_KIND: Record<string, EventType> = {
  outcome: "outcome",
  decision: "decision",
  error: "error",
  test: "test_result",
  resume: "resume_point",
  tool: "tool_call",
  cmd: "command",
  file: "file_action",
};

const TEST_STATUS: Record<string, string> = {
  pass: "pass",
  passed: "pass",
  passing: "pass",
  fail: "fail",
  failed: "fail",
  failing: "fail",
};

/** Turns a parsed query into the store's query. Exported for tests and for the hybrid ranker. */
export function toEventQuery(q: ParsedQuery, limit: number): EventQuery {
  const terms: TextTerm[] = [...q.terms];
  const types = new Set<EventType>(q.kinds);
  const out: EventQuery = { match: null, limit };
  let fileOnly = false;
  for (const { prefix, value } of q.prefixes) {
    switch (prefix) {
      case "decision":
      case "error":
      case "resume":
        types.add(PREFIX_KIND[prefix]!);
        if (value) terms.push({ text: value, phrase: false, negated: false, or: false });
        break;
      case "outcome": {
        types.add("outcome");
        const v = value.toLowerCase();
        if ((OUTCOMES as readonly string[]).includes(v)) out.statuses = [v];
        else if (v === "open") out.statuses = ["failed", "abandoned"];
        else if (value) terms.push({ text: value, phrase: false, negated: false, or: false });
        break;
      }
      case "test": {
        types.add("test_result");
        const status = TEST_STATUS[value.toLowerCase()];
        if (status) out.statuses = [status];
        else if (value) terms.push({ text: value, phrase: false, negated: false, or: false });
        break;
      }
      case "tool":
        if (!value) throw new QueryError("tool:", "'tool:' needs a tool name, e.g. tool:Bash");
        out.tool = value;
        break;
      case "cmd":
        if (!value) throw new QueryError("cmd:", "'cmd:' needs a command, e.g. cmd:\"npm test\"");
        out.command = value;
        break;
      case "file":
        if (!value) throw new QueryError("file:", "'file:' needs a path or part of one");
        out.file = value;
        fileOnly = true;
        break;
    }
  }
  if (q.sessions.length > 1) throw new QueryError(q.sessions.map((s) => `session:${s}`).join(" "), "give one session");
  out.match = buildMatch(terms);
  // A bare `tool:`, `cmd:` or `file:` picks its kind of event; with other words or kinds it only filters.
  if (types.size === 0 && out.match === null) {
    if (out.tool) types.add("tool_call");
    else if (out.command) types.add("command");
    else if (fileOnly) types.add("file_action");
  }
  if (types.size > 0) out.types = [...types];
  if (q.secrets) out.secrets = true;
  if (q.providers.length > 0) out.providers = q.providers;
  if (q.projects.length > 0) out.projects = q.projects;
  if (q.machines?.length) out.machines = q.machines;
  if (q.users?.length) out.users = q.users;
  if (q.sessions[0]) out.sessionPrefix = q.sessions[0];
  if (q.since) out.since = q.since;
  if (q.until) out.until = q.until;
  if (out.match === null && terms.length > 0 && terms.every((t) => t.negated)) {
    throw new QueryError(terms.map((t) => `-${t.text}`).join(" "), "exclusions need words to exclude from");
  }
  const empty =
    out.match === null &&
    !out.types &&
    !out.tool &&
    !out.command &&
    !out.file &&
    !out.secrets &&
    !out.providers &&
    !out.projects &&
    !out.machines &&
    !out.users &&
    !out.sessionPrefix &&
    !out.since &&
    !out.until;
  if (empty)
    throw new QueryError(
      "",
      "the query is empty; give words, a prefix such as error: or test:fail, or a filter such as provider:codex",
    );
  return out;
}

export function search(store: ReadonlyStore, input: string, opts: SearchOptions = {}): SearchResult {
  const parsed = parseQuery(input, opts.now ?? new Date());
  const toHit = hitBuilder(store, parsed);
  return {
    query: input,
    hits: lexicalRows(store, parsed, opts.limit ?? 20).map((r) => toHit(r.event, r.score, r.partial)),
  };
}

/** Words too common to be worth matching when a query is loosened to any of its words. */
export const STOPWORDS = new Set(
  "a an and are as at be been but by can did do does for from had has have how i if in into is it its me my no not of on or our so than that the their them then there these they this to too us was we were what when where which who why will with you your".split(
    " ",
  ),
);

/**
 * A query's terms loosened from "all of these words" to "any of its content words", BM25 ranking the events that
 * have more (and rarer) of them first. Null when there is nothing to loosen: a single word, explicit ORs.
 * Quoted phrases stay required and exclusions stay excluded.
 */
export function relaxedTerms(terms: readonly TextTerm[]): TextTerm[] | null {
  if (terms.some((t) => t.or)) return null;
  const words = terms.filter((t) => !t.negated && !t.phrase);
  const content = words.filter((t) => !STOPWORDS.has(t.text.toLowerCase()));
  if (words.length < 2 || content.length === 0) return null;
  const rest = terms.filter((t) => t.negated || t.phrase);
  return [
    ...rest.filter((t) => t.phrase),
    ...content.map((t, i) => ({ ...t, or: i > 0 })),
    ...rest.filter((t) => t.negated),
  ];
}

export interface LexicalRow {
  event: SessionEvent;
  score: number | null;
  partial?: true;
  /** The kind the question asks for, on its subject: leads in every mode (intent.ts). */
  lead?: true;
}

/**
 * BM25 over the index with every word required; when that finds fewer than `limit` events, the events with only
 * some of the words follow (marked partial), so a question typed in plain words still finds its evidence.
 */
export function lexicalRows(store: ReadonlyStore, parsed: ParsedQuery, limit: number): LexicalRow[] {
  const intent = intentOf(parsed, STOPWORDS);
  if (!intent) return recentRows(store, parsed, limit);
  const asking = { ...parsed, terms: intent.words, recent: intent.recent };
  const rows = recentRows(store, asking, limit);
  if (intent.kinds.length === 0) return rows;
  // The kind the question asks for leads: its best matches on the subject first, then the rest.
  const asked = recentRows(store, { ...asking, terms: intent.terms, kinds: intent.kinds }, limit).filter((r) =>
    answersIntent(intent, r.event),
  );
  const lead = asked.slice(0, leadCount(limit)).map((r) => ({ ...r, lead: true as const }));
  const seen = new Set(lead.map((r) => r.event.event_id));
  return [
    ...lead,
    ...[...rows, ...asked].filter((r) => !seen.has(r.event.event_id) && seen.add(r.event.event_id)),
  ].slice(0, limit);
}

/** The share of a page the asked-for kind leads with. */
const INTENT_SHARE = 0.3;

/** How many of a page of `limit` hits the asked-for kind leads with. */
export function leadCount(limit: number): number {
  return Math.ceil(limit * INTENT_SHARE);
}

function recentRows(store: ReadonlyStore, parsed: ParsedQuery, limit: number): LexicalRow[] {
  if (!parsed.recent) return wordRows(store, parsed, limit);
  // The latest matches of a session may rank below its first ones: read deeper, then order within sessions.
  const pool = wordRows(store, parsed, Math.max(limit * RECENT_DEPTH, 30));
  return latestFirst(
    pool,
    (r) => r.event.session_id,
    (r) => r.event.ordinal,
    // BM25 is lower for better matches; a hit without a score (filters only) counts as the best
    (r) => -(r.score ?? -1),
  ).slice(0, limit);
}

/** How much deeper than asked a query with recency words reads before ordering within sessions. */
const RECENT_DEPTH = 3;

function wordRows(store: ReadonlyStore, parsed: ParsedQuery, limit: number): LexicalRow[] {
  const rows: LexicalRow[] = store.searchEvents(toEventQuery(parsed, limit));
  if (rows.length >= limit) return rows;
  const relaxed = relaxedTerms(parsed.terms);
  if (!relaxed) return rows;
  const seen = new Set(rows.map((r) => r.event.event_id));
  for (const r of store.searchEvents(toEventQuery({ ...parsed, terms: relaxed }, limit))) {
    if (rows.length >= limit) break;
    if (!seen.has(r.event.event_id)) rows.push({ ...r, partial: true });
  }
  return rows;
}

/** The words a query's snippets highlight: its text and prefix values, not tool names or pass/fail. */
export function highlightWords(parsed: ParsedQuery): string[] {
  return [
    ...parsed.terms
      .filter((t) => !t.negated)
      .flatMap((t) => ftsTokens(t.text))
      .filter((w) => !STOPWORDS.has(w)),
    ...parsed.prefixes.flatMap((p) =>
      p.prefix === "tool" || (p.prefix === "test" && TEST_STATUS[p.value.toLowerCase()]) ? [] : ftsTokens(p.value),
    ),
  ];
}

/** Turns events into hits for one query: project, snippet and evidence chain (sessions looked up once each). */
export function hitBuilder(
  store: ReadonlyStore,
  parsed: ParsedQuery,
): (event: SessionEvent, score: number | null, partial?: true) => SearchHit {
  const words = highlightWords(parsed);
  const sessions = new Map<string, SessionRow | undefined>();
  return (event, score, partial) => {
    if (!sessions.has(event.session_id)) sessions.set(event.session_id, store.getSession(event.session_id));
    return {
      event_id: event.event_id,
      session_id: event.session_id,
      provider: event.provider,
      project: sessions.get(event.session_id)?.project ?? null,
      timestamp: event.timestamp,
      event_type: event.event_type,
      status: event.status,
      score,
      snippet: snippetOf(event.text, words),
      evidence: evidenceChain(store, event),
      source_file: event.source_file,
      source_line: event.source_line,
      source_gone: sessions.get(event.session_id)?.source_gone ?? false,
      ...(partial ? { partial } : {}),
      ...outcomeOf(store, event),
    };
  };
}

/** The outcome of a request hit (its id follows from the request's), or of the request behind an outcome hit. */
function outcomeOf(store: ReadonlyStore, event: SessionEvent): Pick<SearchHit, "outcome"> {
  const o =
    event.event_type === "outcome"
      ? event
      : event.event_type === "user_message" && event.role === "user"
        ? store.getEventHead(derivedEventId(event.event_id, "outcome", 0), 400)
        : undefined;
  if (!o || typeof o.meta["outcome"] !== "string") return {};
  return { outcome: { outcome: o.meta["outcome"], why: String(o.meta["why"] ?? ""), event_id: o.event_id } };
}

const CHAIN_END = new Set<EventType>(["user_message", "assistant_message"]);

/** What an event came from: parents up to the message that started it (at most four steps). */
export function evidenceChain(store: ReadonlyStore, event: SessionEvent): EvidenceLink[] {
  const chain: EvidenceLink[] = [];
  let current = event;
  for (let depth = 0; depth < 4 && current.parent_event_id && !CHAIN_END.has(current.event_type); depth++) {
    // only the start of the text is shown, and a tool result's text can run to megabytes
    const parent = store.getEventHead(current.parent_event_id, 400);
    if (!parent) break;
    chain.push({ event_id: parent.event_id, event_type: parent.event_type, text: firstLine(parent.text) });
    current = parent;
  }
  return chain;
}

function firstLine(text: string): string {
  const line = text.trimStart().split("\n", 1)[0] ?? "";
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}
