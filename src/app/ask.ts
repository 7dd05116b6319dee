/**
 * Gathering an evidence pack for `cairn ask`: search hits (words and meaning), what each came from, the outcomes
 * and decisions beside it in its session, and the ledger of the resume brief when a session is named. The pack
 * itself (order, deduplication, budget) is `ask/pack.ts`'s; this file only reads the index.
 */
import { buildPack, DEFAULT_PACK_BUDGET, type EvidencePack, type PackCandidate } from "../ask/pack.ts";
import { createTokenCounter, type TokenCounter } from "../resume/tokens.ts";
import { redactText } from "../secrets/redact.ts";
import type { ReadonlyStore } from "../store/types.ts";
import { citedIds } from "../topology/citation.ts";
import type { SessionEvent } from "../topology/types.ts";
import type { ReadCairn } from "./cairn.ts";

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

let sharedCounter: TokenCounter | null = null;

/** The evidence pack for a question, read through the app. */
export async function evidencePack(app: ReadCairn, req: PackRequest): Promise<EvidencePack> {
  const budget = req.budget ?? DEFAULT_PACK_BUDGET;
  const session = req.session ? app.session(req.session) : null;
  const store = app.reader();
  const candidates: PackCandidate[] = [];
  if (session) candidates.push(...(await ledgerCandidates(app, store, session.session_id)));
  const query = session ? `${req.question} session:${session.session_id}` : req.question;
  const found = await app.search({ query: searchable(query), limit: req.hits ?? hitsFor(budget) });
  // every hit with what it came from first, then what surrounds each: a small budget holds more hits that way
  const around: PackCandidate[] = [];
  for (const hit of found.hits) {
    const event = store.getEventHead(hit.event_id, READ_CHARS);
    if (!event) continue;
    candidates.push(candidate(event, "hit"));
    for (const link of hit.evidence) {
      const parent = store.getEventHead(link.event_id, READ_CHARS);
      if (parent) candidates.push(candidate(parent, "chain"));
    }
    if (hit.outcome) {
      const outcome = store.getEventHead(hit.outcome.event_id, READ_CHARS);
      if (outcome) candidates.push(candidate(outcome, "outcome"));
    }
    around.push(...surroundings(store, event));
  }
  candidates.push(...around);
  sharedCounter ??= createTokenCounter();
  // The pack goes to a model the user picked, possibly another provider than the agent's: never a secret.
  for (const c of candidates) c.text = redactText(c.text);
  return buildPack(req.question, candidates, {
    budget,
    counter: sharedCounter,
    sessionId: session?.session_id ?? null,
  });
}

/** More hits for a larger budget: each hit with its chain costs a few hundred tokens. */
function hitsFor(budget: number): number {
  return Math.max(8, Math.min(60, Math.round(budget / 200)));
}

/**
 * A question is free text: characters the query language reads as syntax (a trailing `?`, `prefix:` words) are
 * taken as words, so "what failed in auth.ts?" is never a malformed query.
 */
export function searchable(question: string): string {
  return question.replace(/["()]/g, " ").replace(/\?/g, " ").replace(/\s+/g, " ").trim();
}

function candidate(event: SessionEvent, reason: PackCandidate["reason"]): PackCandidate {
  return {
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
 * What surrounds a hit in its session: what it led to (a call's result, the error or check derived from it), the
 * events right beside it, and the decisions and outcomes a little further off, nearest first.
 */
function surroundings(store: ReadonlyStore, event: SessionEvent): PackCandidate[] {
  const out: PackCandidate[] = [];
  for (const edge of store.edgesFrom(event.event_id)) {
    if (edge.edge_type === "next") continue;
    const child = store.getEventHead(edge.dst, READ_CHARS);
    if (child) out.push(candidate(child, "context"));
  }
  const near = store
    .sessionEvents(event.session_id, {
      from: Math.max(0, event.ordinal - NEIGHBOURHOOD),
      to: event.ordinal + NEIGHBOURHOOD,
    })
    .filter((e) => e.event_id !== event.event_id)
    .sort((a, b) => Math.abs(a.ordinal - event.ordinal) - Math.abs(b.ordinal - event.ordinal));
  const short = (e: SessionEvent) => ({ ...e, text: e.text.slice(0, READ_CHARS) });
  for (const e of near.filter((e) => Math.abs(e.ordinal - event.ordinal) <= BESIDE))
    out.push(candidate(short(e), "context"));
  for (const e of near.filter((e) => NEIGHBOUR_TYPES.has(e.event_type)).slice(0, 3))
    out.push(candidate(short(e), e.event_type === "decision" ? "decision" : "outcome"));
  return out;
}

/** The brief's ledger lines (goal, constraints, decisions, failures, files, checks, plan), each with its first cited event. */
async function ledgerCandidates(app: ReadCairn, store: ReadonlyStore, sessionId: string): Promise<PackCandidate[]> {
  const brief = await app.brief({ session: sessionId });
  const start = brief.text.indexOf("## Ledger");
  if (start < 0) return [];
  const rest = brief.text.slice(start + 1);
  const end = rest.search(/\n## /);
  const ledger = end < 0 ? rest : rest.slice(0, end);
  const out: PackCandidate[] = [];
  for (const line of ledger.split("\n")) {
    const id = citedIds(line)[0];
    if (!id) continue;
    const event = store.getEventHead(id, 0);
    if (!event) continue;
    out.push({ ...candidate(event, "ledger"), text: line.replace(/\s*\[e:[^\]]*\]/g, "").trim() });
  }
  return out;
}
