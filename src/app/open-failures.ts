/**
 * "What was still failing (at the end)": the answer is the resume ledger's failures of the sessions the question's
 * hits are in, open ones first, on the question's subject. The ledger's own rules decide what is open (a failure
 * a later passing run or successful edit answered is resolved); this only picks the failures about the subject
 * and puts their events before the other hits.
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
  last: number;
  cites: string[];
  text: string;
}

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
      sessionFailures(store, id).filter((f) => subject.length === 0 || subject.some((w) => mentions(f.text, w))),
    )
    .filter((list) => list.length > 0);
  const picked: string[] = [];
  for (const about of found.slice(0, subject.length === 0 ? 1 : SESSIONS)) {
    about.sort((a, b) => Number(b.open) - Number(a.open) || b.last - a.last);
    for (const f of about) picked.push(...[...f.cites].reverse());
  }
  return pinHits(store, result, parsed, { ids: picked, why: "a failure of the session's ledger", limit, share: SHARE });
}

/** The session's failures and failing checks as its ledger reads them, each with the text it is matched on. */
function sessionFailures(store: ReadonlyStore, sessionId: string): Failure[] {
  const t = loadTimeline(store, sessionId);
  const context = (ids: readonly string[]) =>
    ids
      .flatMap((id) => {
        const e = t.byId.get(id);
        return e
          ? [e.text.slice(0, 400), ...evidenceChain(store, e as SessionEvent).map((l) => l.text.slice(0, 400))]
          : [];
      })
      .join(" ");
  const failures = failuresOf(t.events, t.byId, t.session.cwd).map(
    (f: LedgerFailure): Failure => ({
      open: f.status === "open",
      last: f.last,
      cites: f.cites,
      text: `${f.command} ${f.path ?? ""} ${f.signature} ${f.lastLine} ${context(f.cites)}`,
    }),
  );
  const checks = checksOf(t.events)
    .filter((c: LedgerCheck) => c.status === "fail")
    .map(
      (c): Failure => ({
        open: !c.answered,
        last: c.ordinal,
        cites: c.cites,
        text: `${c.family} ${c.command} ${c.failingTests.join(" ")} ${c.errorLines.join(" ")} ${context(c.cites)}`,
      }),
    );
  return [...failures, ...checks];
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
