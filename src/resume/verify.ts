/**
 * The continuity check (resume-method §4.7.2, the seed's "validate the resumed agent"): after a session was started
 * from a brief, its first actions should build on the brief, not redo what it carried. Three findings:
 * - a failure the ledger already lists (same command head and error signature) happens again: a dead end repeated;
 * - files whose state the brief carried are read again: one re-read after a resume is normal, more than
 *   `MAX_REREADS` means the file-state section was missing something;
 * - work on a completed step: a plan item the ledger had completed goes back to pending or in progress, the agent
 *   records a checkpoint of an earlier step than the one resumed, or it edits a file that only earlier, finished
 *   steps touched while no check was failing.
 * The brief is found by its header in the resumed session's first user messages; the ledger is rebuilt as of the
 * brief's cut, so the check is as deterministic as the brief.
 */
import type { ReadonlyStore } from "../store/types.ts";
import type { SessionEvent } from "../topology/types.ts";
import { fold } from "./build.ts";
import { listCheckpoints } from "./checkpoints.ts";
import { commandHead } from "./entities.ts";
import { displayPath } from "./file-states.ts";
import type { Ledger } from "./ledger-types.ts";
import { planItemsOf } from "./plan-items.ts";
import { HEADER_RE } from "./render.ts";
import { isTypedUserMessage } from "./requests.ts";
import { isDerived, loadChain, loadTimeline } from "./timeline.ts";

/** Actions (tool calls) of the resumed session that are inspected. */
export const DEFAULT_ACTIONS = 5;
/** Re-reads of files the brief carried above this count are a finding. */
export const MAX_REREADS = 3;
/** How many user messages of the resumed session may come before the one holding the brief. */
const BRIEF_SEARCH = 3;

export const FINDING_KINDS = ["repeated_failure", "reread", "completed_step"] as const;
export type FindingKind = (typeof FINDING_KINDS)[number];

export interface Finding {
  kind: FindingKind;
  /** What happened, in one line. */
  text: string;
  /** The resumed session's event that shows it. */
  event_id: string;
  ordinal: number;
  /** The source session's events the ledger item came from. */
  ledger_cites: string[];
}

export const VERDICTS = ["continuous", "drifted", "broken"] as const;
export type Verdict = (typeof VERDICTS)[number];

export interface VerifyResult {
  session_id: string;
  /** The session and cut the brief was built from. */
  brief: { session_id: string; at: string; event_id: string; step: number | null };
  /** The tool calls inspected, in order. */
  actions: Array<{ event_id: string; ordinal: number; text: string }>;
  rereads: number;
  findings: Finding[];
  /** `broken`: a repeated failure or work on a completed step; `drifted`: too many re-reads; else `continuous`. */
  verdict: Verdict;
}

export interface VerifyOptions {
  sessionId: string;
  actions?: number;
}

export function verifyResumed(store: ReadonlyStore, opts: VerifyOptions): VerifyResult {
  const resumed = loadTimeline(store, opts.sessionId);
  const found = findBrief(resumed.events);
  if (!found)
    throw new Error(
      `session ${opts.sessionId} does not start from a cairn brief (no '# Resume brief — session …' in its first ${BRIEF_SEARCH} user messages)`,
    );
  const { message, source, at, step } = found;
  const chain = loadChain(store, source);
  const checkpoints = listCheckpoints(store, source, chain.events);
  const folded = fold(loadTimeline(store, source, { at, chain }), checkpoints, step);
  const ledger = folded.ledger;
  const cwd = folded.timeline.session.cwd;

  const after = resumed.events.filter((e) => e.ordinal > message.ordinal);
  const limit = opts.actions ?? DEFAULT_ACTIONS;
  const allCalls = after.filter((e) => e.event_type === "tool_call");
  const calls = allCalls.slice(0, limit);
  const callIds = new Set(calls.map((c) => c.event_id));
  // The window ends where the next, uninspected action begins.
  const end = allCalls[limit]?.ordinal ?? Number.POSITIVE_INFINITY;
  const early = after.filter((e) => e.ordinal < end);
  // Derived events hang off the call or its result; take those whose chain leads back to an inspected call.
  const byId = resumed.byId;
  const ofCalls = early.filter((e) => isDerived(e) && leadsTo(e, callIds, byId));

  const findings: Finding[] = [
    ...repeatedFailures(ofCalls, ledger),
    ...completedWork(ofCalls, early, ledger, step, cwd),
  ];
  const reread = rereads(ofCalls, ledger, cwd, resumed.session.cwd);
  if (reread.length > MAX_REREADS) findings.push(...reread);
  findings.sort((a, b) => a.ordinal - b.ordinal || a.kind.localeCompare(b.kind));
  const broken = findings.some((f) => f.kind !== "reread");
  return {
    session_id: resumed.session.session_id,
    brief: { session_id: source, at, event_id: message.event_id, step },
    actions: calls.map((c) => ({ event_id: c.event_id, ordinal: c.ordinal, text: c.text.slice(0, 160) })),
    rereads: reread.length,
    findings,
    verdict: broken ? "broken" : findings.length > 0 ? "drifted" : "continuous",
  };
}

interface FoundBrief {
  message: SessionEvent;
  source: string;
  at: string;
  step: number | null;
}

function findBrief(events: readonly SessionEvent[]): FoundBrief | null {
  let seen = 0;
  for (const e of events) {
    if (e.event_type !== "user_message") continue;
    const m = HEADER_RE.exec(e.text);
    if (m) {
      const step = /, for step (\d+)\./.exec(e.text);
      return { message: e, source: m[1]!, at: m[2]!, step: step ? Number(step[1]) : null };
    }
    if (isTypedUserMessage(e) && ++seen >= BRIEF_SEARCH) break;
  }
  return null;
}

function leadsTo(e: SessionEvent, ids: ReadonlySet<string>, byId: ReadonlyMap<string, SessionEvent>): boolean {
  let cur: SessionEvent | undefined = e;
  for (let hops = 0; cur && hops < 4; hops++) {
    if (ids.has(cur.event_id)) return true;
    cur = cur.parent_event_id ? byId.get(cur.parent_event_id) : undefined;
  }
  return false;
}

function repeatedFailures(events: readonly SessionEvent[], ledger: Ledger): Finding[] {
  const out: Finding[] = [];
  for (const e of events) {
    if (e.event_type !== "error" || typeof e.meta["signature"] !== "string") continue;
    const sig = e.meta["signature"] as string;
    const head = e.command ? commandHead(e.command) : null;
    const hit = ledger.failures.find(
      (f) => f.signature === sig && (head === null || commandHead(f.command) === head || f.command === e.tool_name),
    );
    if (!hit) continue;
    out.push({
      kind: "repeated_failure",
      text: `repeats the ${hit.status} failure of \`${hit.command}\` (×${hit.count} before the brief): ${sig}`,
      event_id: e.event_id,
      ordinal: e.ordinal,
      ledger_cites: hit.cites,
    });
  }
  return out;
}

function rereads(
  events: readonly SessionEvent[],
  ledger: Ledger,
  cwd: string | null,
  newCwd: string | null,
): Finding[] {
  const carried = new Map(ledger.files.filter((f) => f.modified).map((f) => [f.path, f]));
  const out: Finding[] = [];
  const seen = new Set<string>();
  for (const e of events) {
    if (e.event_type !== "file_action" || e.meta["op"] !== "read" || !e.file_path) continue;
    const path = displayPath(e.file_path, cwd ?? newCwd);
    const f = carried.get(path);
    if (!f || seen.has(path)) continue;
    seen.add(path);
    out.push({
      kind: "reread",
      text: `re-reads ${path}, whose state the brief carried`,
      event_id: e.event_id,
      ordinal: e.ordinal,
      ledger_cites: f.cites,
    });
  }
  return out;
}

function completedWork(
  events: readonly SessionEvent[],
  early: readonly SessionEvent[],
  ledger: Ledger,
  step: number | null,
  cwd: string | null,
): Finding[] {
  const out: Finding[] = [];
  // Plan items the ledger had completed that the resumed agent puts back to work.
  const done = new Map(ledger.plan.filter((p) => p.state === "completed").map((p) => [p.text, p]));
  for (const p of planItemsOf(early, cwd)) {
    const was = done.get(p.text);
    if (!was || p.state === "completed") continue;
    out.push({
      kind: "completed_step",
      text: `puts the completed plan item "${p.text}" back to ${p.state.replace("_", " ")}`,
      event_id: p.cites[p.cites.length - 1]!,
      ordinal: p.ordinal,
      ledger_cites: was.cites,
    });
  }
  // A checkpoint of an earlier step than the one resumed: the agent thinks it is back there.
  const target = step ?? ledger.step.target ?? ledger.step.checkpointStep;
  if (target !== null)
    for (const e of early) {
      if (e.event_type !== "resume_point") continue;
      const own = ["step", "step_number", "stepNumber"].map((k) => e.meta[k]).find((v) => typeof v === "number");
      if (typeof own === "number" && own < target)
        out.push({
          kind: "completed_step",
          text: `records step ${own} although the brief resumed at step ${target}`,
          event_id: e.event_id,
          ordinal: e.ordinal,
          ledger_cites: ledger.step.cites,
        });
    }
  // Rewriting files only finished steps touched, while nothing was failing.
  const since = ledger.step.checkpointOrdinal;
  const failing = ledger.checks.some((c) => c.status === "fail" && !c.answered);
  if (since !== null && !failing) {
    const finished = new Map(ledger.files.filter((f) => f.modified && f.lastOrdinal < since).map((f) => [f.path, f]));
    const flagged = new Set<string>();
    for (const e of events) {
      if (e.event_type !== "file_action" || !e.file_path || e.status === "error") continue;
      if (!["edit", "write", "delete", "move"].includes(String(e.meta["op"]))) continue;
      const path = displayPath(e.file_path, cwd);
      const f = finished.get(path);
      if (!f || flagged.has(path)) continue;
      flagged.add(path);
      out.push({
        kind: "completed_step",
        text: `rewrites ${path}, last changed in a step completed before @${since}, while no check was failing`,
        event_id: e.event_id,
        ordinal: e.ordinal,
        ledger_cites: f.cites,
      });
    }
  }
  return out;
}
