/**
 * Gathering an evidence pack for `cairn ask`: search hits (words and meaning), what each came from, the outcomes
 * and decisions beside it in its session, and the ledger of the resume brief when a session is named. The pack
 * itself (order, deduplication, budget) is `ask/pack.ts`'s; this file only reads the index.
 */
import { buildPack, DEFAULT_PACK_BUDGET, type EvidencePack, type PackCandidate } from "../ask/pack.ts";
import { asksForEndState, identifierForms } from "../ask/query-forms.ts";
import { createTokenCounter, type TokenCounter } from "../resume/tokens.ts";
import type { HybridHit } from "../search/hybrid.ts";
import { redactText } from "../secrets/redact.ts";
import type { ReadonlyStore } from "../store/types.ts";
import { citedIds } from "../topology/citation.ts";
import type { SessionEvent } from "../topology/types.ts";
import type { AskDeps } from "./ask-deps.ts";

export interface PackRequest {
  question: string;
  /** A session id or prefix: its ledger goes first, and search is limited to it. */
  session?: string;
  /** Token budget of the pack. */
  budget?: number;
  /** Search hits read (each brings its chain and neighbours). */
  hits?: number;
}

/** Characters of an event read for the pack (it is clipped further there). */
const READ_CHARS = 4000;
/** How far (in events) around a hit decisions and outcomes count as "beside it". */
const NEIGHBOURHOOD = 12;
const NEIGHBOUR_TYPES = new Set(["decision", "outcome"]);
/** Events this close to a hit (either side) come with it as context. */
const BESIDE = 2;
/** Hits of each identifier's own search. */
const FORM_HITS = 6;
/** Sessions whose ledger a question about the end state brings in. */
const END_SESSIONS = 2;
/** Where (in hit ranks) the first such session's ledger goes: after the best few hits. */
const END_AT = 2.5;
/**
 * Where a hit's companions go in the pack's order, in hit ranks after the hit: what it came from right after it,
 * what surrounds it after the next few hits, the decisions and outcomes near it later still. So a small budget
 * holds the best hits with their context rather than many hits alone.
 */
const DELAY = { chain: 0.5, context: 3, near: 6 } as const;

interface Placed {
  at: number;
  candidate: PackCandidate;
}

let sharedCounter: TokenCounter | null = null;

/** The evidence pack for a question, read through the app. */
export async function evidencePack(app: AskDeps, req: PackRequest): Promise<EvidencePack> {
  const budget = req.budget ?? DEFAULT_PACK_BUDGET;
  const session = req.session ? app.session(req.session) : null;
  const store = app.reader();
  const placed: Placed[] = [];
  const place = (at: number, c: PackCandidate) => placed.push({ at, candidate: c });
  if (session) for (const c of await ledgerCandidates(app, store, session.session_id)) place(-1, c);
  const scope = session ? ` session:${session.session_id}` : "";
  const full = fullHits(budget);
  const found = await app.search({ query: searchable(req.question) + scope, limit: req.hits ?? hitsFor(budget) });
  found.hits.forEach((hit, rank) => {
    placeHit(store, place, hit, rank, rank < full ? "full" : "line");
  });
  // each identifier, path or error code searched alone, its hits between the question's
  for (const form of identifierForms(req.question)) {
    const own = await app.search({ query: `${JSON.stringify(form)}${scope}`, limit: FORM_HITS });
    own.hits.forEach((hit, rank) => {
      placeHit(store, place, hit, 2 * rank + 1, "line");
    });
  }
  // "what was still failing at the end", "did it work in the end": the ledger of the sessions the hits are in
  if (!session && asksForEndState(req.question)) {
    const sessions = [...new Set(found.hits.map((h) => h.session_id))].slice(0, END_SESSIONS);
    for (const [i, id] of sessions.entries())
      for (const c of await ledgerCandidates(app, store, id, true)) place(END_AT + 4 * i, c);
  }
  // stable: equal places keep the order they were placed in
  const candidates = placed
    .map((p, i) => ({ ...p, i }))
    .sort((a, b) => a.at - b.at || a.i - b.i)
    .map((p) => p.candidate);
  sharedCounter ??= createTokenCounter();
  // The pack goes to a model the user picked, possibly another provider than the agent's: never a secret. Its
  // texts were read through the redacting view; the scan is the last guard of what leaves the machine.
  const short = new Map<string, string>();
  for (const c of candidates) {
    c.text = redactText(c.text);
    if (!short.has(c.session_id)) short.set(c.session_id, app.shortSessionId(c.session_id));
    c.session_short = short.get(c.session_id)!;
  }
  return buildPack(req.question, candidates, {
    budget,
    counter: sharedCounter,
    sessionId: session?.session_id ?? null,
  });
}

/** A hit at its rank, what it came from and its request's outcome right after it, what surrounds it later. */
function placeHit(
  store: ReadonlyStore,
  place: (at: number, c: PackCandidate) => void,
  hit: HybridHit,
  rank: number,
  detail: "full" | "line",
): void {
  const event = store.getEventHead(hit.event_id, READ_CHARS);
  if (!event) return;
  place(rank, candidate(event, "hit", detail));
  for (const link of hit.evidence) {
    const parent = store.getEventHead(link.event_id, READ_CHARS);
    if (parent) place(rank + DELAY.chain, candidate(parent, "chain", "line"));
  }
  if (hit.outcome) {
    const outcome = store.getEventHead(hit.outcome.event_id, READ_CHARS);
    if (outcome) place(rank + DELAY.chain, candidate(outcome, "outcome", "line"));
  }
  const { context, near } = surroundings(store, event);
  for (const c of context) place(rank + DELAY.context, c);
  for (const c of near) place(rank + DELAY.near, c);
}

/** Hits shown whole (head and tail): the best few; the rest are a line each. */
function fullHits(budget: number): number {
  return Math.max(2, Math.min(10, Math.round(budget / 1000)));
}

/** More hits for a larger budget: each hit with its chain and surroundings costs a few hundred tokens in lines. */
function hitsFor(budget: number): number {
  return Math.max(10, Math.min(100, Math.round(budget / 100)));
}

/**
 * A question is free text: characters the query language reads as syntax (a trailing `?`, `prefix:` words) are
 * taken as words, so "what failed in auth.ts?" is never a malformed query.
 */
export function searchable(question: string): string {
  return question.replace(/["()]/g, " ").replace(/\?/g, " ").replace(/\s+/g, " ").trim();
}

function candidate(
  event: SessionEvent,
  reason: PackCandidate["reason"],
  detail: PackCandidate["detail"] = "full",
): PackCandidate {
  return {
    detail,
    event_id: event.event_id,
    session_id: event.session_id,
    provider: event.provider,
    timestamp: event.timestamp,
    event_type: event.event_type,
    status: event.status,
    text: event.text,
    reason,
  };
}

/**
 * What surrounds a hit in its session: what it led to (a call's result, the error or check derived from it) and
 * the events right beside it; and, a little further off, the decisions and outcomes near it, nearest first.
 */
function surroundings(store: ReadonlyStore, event: SessionEvent): { context: PackCandidate[]; near: PackCandidate[] } {
  const context: PackCandidate[] = [];
  for (const edge of store.edgesFrom(event.event_id)) {
    if (edge.edge_type === "next") continue;
    const child = store.getEventHead(edge.dst, READ_CHARS);
    if (child) context.push(candidate(child, "context", "line"));
  }
  const around = store
    .sessionEvents(event.session_id, {
      from: Math.max(0, event.ordinal - NEIGHBOURHOOD),
      to: event.ordinal + NEIGHBOURHOOD,
    })
    .filter((e) => e.event_id !== event.event_id)
    .sort((a, b) => Math.abs(a.ordinal - event.ordinal) - Math.abs(b.ordinal - event.ordinal));
  const short = (e: SessionEvent) => ({ ...e, text: e.text.slice(0, READ_CHARS) });
  for (const e of around.filter((e) => Math.abs(e.ordinal - event.ordinal) <= BESIDE))
    context.push(candidate(short(e), "context", "line"));
  const near = around
    .filter((e) => NEIGHBOUR_TYPES.has(e.event_type))
    .slice(0, 3)
    .map((e) => candidate(short(e), e.event_type === "decision" ? "decision" : "outcome", "line"));
  return { context, near };
}

/** The ledger's parts that tell how a session ended: requests not done, failures (open first), the last checks. */
const END_SECTIONS = /^### (Requests|Failures|Checks)/;
/** Lines of each end-state section taken: the first ones are the open and latest. */
const END_LINES = 6;

/**
 * The brief's ledger lines (goal, constraints, decisions, failures, files, checks, plan), each with its first cited
 * event; with `endOnly`, the lines before the first section (goal, latest request) and the first lines of the
 * sections that tell how it ended.
 */
async function ledgerCandidates(
  app: AskDeps,
  store: ReadonlyStore,
  sessionId: string,
  endOnly = false,
): Promise<PackCandidate[]> {
  const brief = await app.brief({ session: sessionId });
  const start = brief.text.indexOf("## Ledger");
  if (start < 0) return [];
  const rest = brief.text.slice(start + 1);
  const end = rest.search(/\n## /);
  const ledger = end < 0 ? rest : rest.slice(0, end);
  const out: PackCandidate[] = [];
  let section = "";
  let taken = 0;
  let last: PackCandidate | null = null;
  for (const line of ledger.split("\n")) {
    if (line.startsWith("### ")) {
      section = line;
      taken = 0;
    }
    const id = citedIds(line)[0];
    // a quoted fact ("**Goal** (turn 1):" with the words quoted below it) is one line
    if (!id && last && /^(?:\s{2,}|>)\S/.test(line)) {
      last.text = `${last.text} ${line.replace(/^(?:\s+|>\s*)/, "")}`.trim();
      continue;
    }
    last = null;
    if (endOnly && section && (!END_SECTIONS.test(section) || taken >= END_LINES)) continue;
    if (!id) continue;
    const event = store.getEventHead(id, 0);
    if (!event) continue;
    last = { ...candidate(event, "ledger", "line"), text: line.replace(/\s*\[e:[^\]]*\]/g, "").trim() };
    out.push(last);
    taken++;
  }
  return out;
}
