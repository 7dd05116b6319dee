/**
 * open / closed, from how the work ended, never from the clock (the same index always gives the same label):
 *
 * 1. open when the thread's latest session ran checks and one of them failed in its last run;
 * 2. open when the latest session ended on a failure (its last tool result is an error): the agent stopped
 *    right after something went wrong;
 * 3. otherwise the checks of the latest earlier session that ran any decide: one failed last → open (nobody
 *    re-ran it since), all passed → closed;
 * 4. closed when no session of the thread ran a check and the latest did not end on an error.
 *
 * Only each unit's own session is read; subagents report back to it, and their checks are part of its story.
 */
import type { SessionEnding, ThreadSessionRow } from "../store/thread-types.ts";
import { isFailing, latestRuns } from "../topology/check-state.ts";
import type { ThreadLabel } from "./types.ts";

export interface LabelResult {
  label: ThreadLabel;
  reason: string;
}

/** `endings`: how each root session ends (`ThreadReads.sessionEndings`). */
export function labelThread(
  roots: readonly ThreadSessionRow[],
  endings: ReadonlyMap<string, SessionEnding>,
): LabelResult {
  const latestFirst = [...roots].sort(byUpdatedDesc);
  const latest = latestFirst[0];
  const none = (id: string): SessionEnding => ({ session_id: id, check_runs: [], last_result: null });
  if (!latest) return { label: "closed", reason: "no sessions" };
  const ending = endings.get(latest.session_id) ?? none(latest.session_id);
  const fromChecks = checkVerdict(ending, true);
  if (fromChecks?.label === "open") return fromChecks;
  if (ending.last_result?.status === "error") {
    const what = ending.last_result.signature ? `: ${ending.last_result.signature}` : "";
    return { label: "open", reason: `the latest session ended on an error${what}` };
  }
  if (fromChecks) return fromChecks;
  for (const s of latestFirst.slice(1)) {
    const verdict = checkVerdict(endings.get(s.session_id) ?? none(s.session_id), false);
    if (verdict) return verdict;
  }
  return { label: "closed", reason: "no check ran and the latest session did not end on an error" };
}

function checkVerdict(ending: SessionEnding, latest: boolean): LabelResult | null {
  const decided = latestRuns(ending.check_runs, (c) => c.key).filter((c) => c.status === "pass" || c.status === "fail");
  if (decided.length === 0) return null;
  const where = latest ? "the latest session" : `session ${ending.session_id}`;
  const failing = decided.filter(isFailing);
  if (failing.length > 0) {
    const first = failing[0]!;
    const tests = first.failing_tests.length > 0 ? ` (${first.failing_tests.length} failing)` : "";
    const more = failing.length > 1 ? ` and ${plural(failing.length - 1, "other check")}` : "";
    return { label: "open", reason: `'${clip(first.key)}'${tests}${more} failed in its last run in ${where}` };
  }
  const last = [...decided].sort((a, b) => (a.timestamp ?? "").localeCompare(b.timestamp ?? "")).at(-1)!;
  return { label: "closed", reason: `checks passed in their last run in ${where} ('${clip(last.key)}')` };
}

function byUpdatedDesc(a: ThreadSessionRow, b: ThreadSessionRow): number {
  const ua = a.updated_at ?? a.started_at ?? "";
  const ub = b.updated_at ?? b.started_at ?? "";
  if (ua !== ub) return ua < ub ? 1 : -1;
  return a.session_id < b.session_id ? -1 : a.session_id > b.session_id ? 1 : 0;
}

function clip(s: string): string {
  const line = s.split("\n")[0]!.trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

function plural(n: number, one: string): string {
  return `${n} ${one}${n === 1 ? "" : "s"}`;
}
