/**
 * Checks (tests, type checks, lints, builds): the last run of each with its failing test names and top
 * error lines, and the commands the session ran, by head, so the next agent knows how this project is built and
 * tested.
 */
import { checkKey, isFailing } from "../topology/check-state.ts";
import type { SessionEvent } from "../topology/types.ts";
import { commandHead, commandParts, shownCommand } from "./entities.ts";
import type { LedgerCheck, LedgerCommand } from "./ledger-types.ts";

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

function numOrNull(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

/**
 * The last run of each check family (test, typecheck, lint, build), newest first. A family whose last run failed
 * is still failing (topology/check-state.ts: that run is its command's latest). For the brief's budget, a failing
 * check that a later passing check of any family has since answered (resume-method §4.3) is listed with the
 * passing ones and marked `answered`: measured on the resume eval, treating it as open costs recall at 3 %
 * (0.608 → 0.578), because one-off check commands are rarely re-run verbatim.
 */
export function checksOf(events: readonly SessionEvent[]): LedgerCheck[] {
  const families = new Map<string, LedgerCheck>();
  for (const e of events) {
    if (e.event_type !== "test_result") continue;
    const family = typeof e.meta["family"] === "string" ? (e.meta["family"] as string) : "check";
    const prev = families.get(family);
    const failed = isFailing(e);
    families.set(family, {
      family,
      command: checkKey(e),
      runs: (prev?.runs ?? 0) + 1,
      fails: (prev?.fails ?? 0) + (failed ? 1 : 0),
      status: e.status ?? "unknown",
      ordinal: e.ordinal,
      passed: numOrNull(e.meta["passed"]),
      failed: numOrNull(e.meta["failed"]),
      failingTests: failed ? strings(e.meta["failing_tests"]) : [],
      errorLines: failed ? strings(e.meta["error_lines"]) : [],
      answered: false,
      cites: [e.event_id],
    });
    if (e.status === "pass") for (const c of families.values()) if (isFailing(c)) c.answered = true;
  }
  return [...families.values()].sort((a, b) => b.ordinal - a.ordinal);
}

/**
 * Commands by head (`npm run build`, `git push`), most runs first, each run shown as it was typed (`shownCommand`);
 * inspection commands are left out. Each command of a line counts (`git add -A && git commit -m '…'` is a `git add` and a `git commit`); a line that failed is one
 * run of the line as a whole, since which of its commands ran, and which failed, the log does not say.
 */
export function commandsOf(events: readonly SessionEvent[]): LedgerCommand[] {
  const heads = new Map<string, LedgerCommand & { lastOrdinal: number }>();
  /** Where each form was last run: among forms run as often, the latest comes first (the last commit's message). */
  const lastRun = new Map<string, number>();
  const count = (e: SessionEvent, head: string, form: string) => {
    lastRun.set(`${head}\n${form}`, e.ordinal);
    const c = heads.get(head) ?? { head, runs: 0, fails: 0, cites: [], forms: [], lastOrdinal: 0 };
    c.runs++;
    let known = c.forms.find((f) => f.form === form);
    if (!known) {
      known = { form, runs: 0, fails: 0 };
      c.forms.push(known);
    }
    known.runs++;
    if (e.status === "error") known.fails++;
    if (e.status === "error") c.fails++;
    if (c.cites.at(-1) !== e.event_id) c.cites.push(e.event_id);
    c.lastOrdinal = e.ordinal;
    heads.set(head, c);
  };
  for (const e of events) {
    if (e.event_type !== "command" || !e.command) continue;
    const parts = commandParts(e.command);
    if (e.status === "error" && parts.length > 1) {
      const head = parts.map((p) => commandHead(p.text)).find((h) => h !== null);
      if (head) count(e, head, shownCommand(e.command));
      continue;
    }
    for (const part of parts) {
      const head = part.sure ? commandHead(part.text) : null;
      // A line of one command is shown as it was logged (a pipe into `tail` included), not re-quoted.
      if (head !== null) count(e, head, shownCommand(parts.length === 1 ? e.command : part.text));
    }
  }
  return [...heads.values()]
    .sort((a, b) => b.runs - a.runs || b.lastOrdinal - a.lastOrdinal || (a.head < b.head ? -1 : 1))
    .map(({ lastOrdinal: _l, ...c }) => {
      const last = (form: string) => lastRun.get(`${c.head}\n${form}`) ?? 0;
      return { ...c, forms: [...c.forms].sort((a, b) => b.runs - a.runs || last(b.form) - last(a.form)) };
    });
}
