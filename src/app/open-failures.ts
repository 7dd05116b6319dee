/**
 * "What was still failing (at the end)": the answer is the resume ledger's failures of the sessions the question's
 * hits are in, open ones first, on the question's subject: requests whose work ended failed (with the person's
 * report), failing checks, failed commands, then the agent's tool mechanics. The ledger's own rules decide what is
 * open (a failure a later passing run or successful edit answered is resolved); this only picks the failures about
 * the subject and puts their events before the other hits.
 */
import { checksOf } from "../resume/checks.ts";
import { failuresOf } from "../resume/failures.ts";
import type { LedgerCheck, LedgerFailure } from "../resume/ledger-types.ts";
import { loadTimeline } from "../resume/timeline.ts";
import type { HybridResult } from "../search/hybrid.ts";
import { intentOf } from "../search/intent.ts";
import { parseQuery } from "../search/query.ts";
import { evidenceChain, STOPWORDS } from "../search/search.ts";
import type { ReadonlyStore } from "../store/types.ts";
import type { SessionEvent } from "../topology/types.ts";
import { pinHits } from "./pin-hits.ts";

/** Sessions whose ledger is read: those of the first hits. */
const SESSIONS = 3;
/**
 * Words every coding session's failures hold: they name no subject ("the python command" is about python), so a
 * failure is matched on the question's other words when it has any.
 */
const GENERIC = new Set([
  "command",
  "commands",
  "error",
  "errors",
  "test",
  "tests",
  "build",
  "run",
  "code",
  "file",
  "files",
  "check",
  "checks",
  "thing",
  "things",
  "stuff",
]);
/** Share of a page the failures lead with. */
const SHARE = 0.5;

interface Failure {
  open: boolean;
  /** What kind of failure: lower leads (see RANK). */
  rank: number;
  last: number;
  /** The events to show, the one that says it best first. */
  cites: string[];
  text: string;
}

/**
 * Asked what was still broken, a person means what they saw fail first: a request whose work ended failed (often
 * their own report, "the token streaming is still broken"), then failing checks, then failed commands; a tool's own
 * complaint (an edit whose old text was not found) is the agent's mechanics, usually retried at once.
 */
const RANK = { request: 0, check: 1, command: 2, tool: 3 } as const;
/** Tools whose failures are about how the agent used them, not about the code. */
const MECHANICS = /^(edit|multiedit|write|read|str_replace|apply_patch|replace|view|glob|grep|ls|todowrite)$/i;

/** The hits with the subject's failures at the sessions' end first, when the question asks what was still failing. */
export function withOpenFailures(store: ReadonlyStore, result: HybridResult, now: Date, limit: number): HybridResult {
  const parsed = parseQuery(result.query, now);
  const intent = intentOf(parsed, STOPWORDS);
  if (intent?.name !== "still-failing") return result;
  const words = intent.terms.map((t) => t.text.toLowerCase());
  const specific = words.filter((w) => !GENERIC.has(w));
  const subject = (specific.length > 0 ? specific : words).map(stemOf).filter((w) => w.length >= 2);
  const sessions = [...new Set(result.hits.map((h) => h.session_id))].slice(0, SESSIONS);
  // the sessions whose failures are about the subject, most such failures first
  const found = sessions
    .map((id) =>
      sessionFailures(store, id, subject).filter(
        (f) => subject.length === 0 || subject.some((w) => mentions(f.text, w)),
      ),
    )
    .filter((list) => list.length > 0);
  const picked: string[] = [];
  for (const about of found.slice(0, subject.length === 0 ? 1 : SESSIONS)) {
    about.sort((a, b) => Number(b.open) - Number(a.open) || a.rank - b.rank || b.last - a.last);
    for (const f of about) picked.push(...f.cites);
  }
  return pinHits(store, result, parsed, { ids: picked, why: "a failure of the session's ledger", limit, share: SHARE });
}

/** The session's failures and failing checks as its ledger reads them, each with the text it is matched on. */
function sessionFailures(store: ReadonlyStore, sessionId: string, subject: readonly string[]): Failure[] {
  const t = loadTimeline(store, sessionId);
  // The working directory's own folder names are in every path of the session: they name no failure.
  const cwd = t.session.cwd;
  const local = (text: string) => (cwd ? text.split(cwd).join(" ") : text);
  const context = (ids: readonly string[]) =>
    ids
      .flatMap((id) => {
        const e = t.byId.get(id);
        return e
          ? [e.text.slice(0, 400), ...evidenceChain(store, e as SessionEvent).map((l) => l.text.slice(0, 400))]
          : [];
      })
      .join(" ");
  const failures = failuresOf(t.events, t.byId, cwd).map(
    (f: LedgerFailure): Failure => ({
      open: f.status === "open",
      rank: MECHANICS.test(f.command) ? RANK.tool : RANK.command,
      last: f.last,
      cites: [...f.cites].reverse(),
      text: local(`${f.command} ${f.path ?? ""} ${f.signature} ${f.lastLine} ${context(f.cites)}`),
    }),
  );
  const checks = checksOf(t.events)
    .filter((c: LedgerCheck) => c.status === "fail")
    .map(
      (c): Failure => ({
        open: !c.answered,
        rank: RANK.check,
        last: c.ordinal,
        cites: [...c.cites].reverse(),
        text: local(
          `${c.family} ${c.command} ${c.failingTests.join(" ")} ${c.errorLines.join(" ")} ${context(c.cites)}`,
        ),
      }),
    );
  return [...failedRequests(t.events, t.byId, local, subject), ...failures, ...checks];
}

/**
 * Requests whose work ended failed, by the topology's outcome events, with the evidence it failed on (the person's
 * own report, or the last failed output). The outcome event only repeats the request.
 */
function failedRequests(
  events: readonly SessionEvent[],
  byId: ReadonlyMap<string, SessionEvent>,
  local: (text: string) => string,
  subject: readonly string[],
): Failure[] {
  const out: Failure[] = [];
  const about = (e: SessionEvent) => subject.some((w) => mentions(local(e.text.slice(0, 4000)), w));
  for (const o of events) {
    if (o.event_type !== "outcome" || String(o.meta["outcome"] ?? o.status) !== "failed" || !o.parent_event_id)
      continue;
    const request = byId.get(o.parent_event_id);
    if (!request) continue;
    const evidence = (Array.isArray(o.meta["evidence"]) ? (o.meta["evidence"] as unknown[]) : [])
      .map((id) => byId.get(String(id)))
      .filter((e): e is SessionEvent => e !== undefined);
    // The person's own report says what broke; a failed tool output says less than the request it served.
    const reported = evidence.some((e) => e.role === "user");
    // Of those, the events that name the question's subject first.
    const order = (reported ? [...evidence, request] : [request, ...evidence]).sort(
      (a, b) => Number(about(b)) - Number(about(a)),
    );
    out.push({
      open: true,
      rank: RANK.request,
      last: Math.max(request.ordinal, ...evidence.map((e) => e.ordinal)),
      cites: order.map((e) => e.event_id),
      text: local([request, ...evidence].map((e) => e.text.slice(0, 4000)).join(" ")),
    });
  }
  return out;
}

/** A light stem: enough that "themes" meets "theme" and "crashing" meets "crash". */
function stemOf(word: string): string {
  const w = word.toLowerCase().replace(/[^\p{L}\p{N}._-]+/gu, "");
  for (const suffix of ["ing", "ed", "es", "s"])
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) return w.slice(0, -suffix.length);
  return w;
}

/** Whether a text holds a word starting with the stem (a short one, such as "ci", only as a whole word). */
function mentions(text: string, stem: string): boolean {
  const end = stem.length < 4 ? "(?![\\p{L}\\p{N}])" : "";
  return new RegExp(`(^|[^\\p{L}\\p{N}])${stem.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}${end}`, "iu").test(text);
}
