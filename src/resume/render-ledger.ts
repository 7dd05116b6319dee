/**
 * The ledger as Markdown items, under caps. Caps shrink in two phases (resume-method §4.2 "shrink caps by halving"):
 * first what the next agent can do without (settled and superseded decisions, resolved failures, read-only files,
 * passing checks, long quotes), then, only if the ledger still does not fit, the must-keep facts themselves, which
 * validation then reports as missing.
 */
import { clip } from "../topology/text.ts";
import type { BriefItem } from "./brief-types.ts";
import { cite, inlineCites } from "./citations.ts";
import { shownCommand } from "./entities.ts";
import { errorLine } from "./failures.ts";
import type {
  Ledger,
  LedgerCheck,
  LedgerCommand,
  LedgerDecision,
  LedgerFailure,
  LedgerMessage,
} from "./ledger-types.ts";

export interface LedgerCaps {
  requestChars: number;
  goalChars: number;
  constraints: number;
  /** Requests not done, newest kept. */
  requestsOpen: number;
  decisionsOpen: number;
  decisionsSettled: number;
  decisionsSuperseded: number;
  decisionChars: number;
  filesModified: number;
  filesRead: number;
  failuresOpen: number;
  failuresResolved: number;
  checksPassing: number;
  failingTests: number;
  errorLines: number;
  commands: number;
  notebookPages: number;
  planOpen: number;
  /** File lines without their counts (1) or in full (0). */
  compactFiles: number;
}

const FULL: LedgerCaps = {
  requestChars: 1500,
  goalChars: 1500,
  constraints: 1000,
  requestsOpen: 5,
  decisionsOpen: 1000,
  decisionsSettled: 6,
  decisionsSuperseded: 2,
  decisionChars: 240,
  filesModified: 1000,
  filesRead: 40,
  failuresOpen: 1000,
  failuresResolved: 8,
  checksPassing: 4,
  failingTests: 50,
  errorLines: 3,
  commands: 12,
  notebookPages: 20,
  planOpen: 1000,
  compactFiles: 0,
};

const OPTIONAL: ReadonlyArray<keyof LedgerCaps> = [
  "requestsOpen",
  "goalChars",
  "requestChars",
  "decisionsSettled",
  "decisionsSuperseded",
  "decisionChars",
  "filesRead",
  "failuresResolved",
  "checksPassing",
  "errorLines",
  "commands",
  "notebookPages",
];
const MUST: ReadonlyArray<keyof LedgerCaps> = [
  "constraints",
  "failingTests",
  "decisionsOpen",
  "filesModified",
  "failuresOpen",
  "planOpen",
];
/** Floors for the optional caps: below these a line says too little to be worth its tokens. */
const FLOORS: Partial<Record<keyof LedgerCaps, number>> = {
  goalChars: 200,
  decisionChars: 100,
  requestChars: 400,
  errorLines: 1,
  commands: 4,
  notebookPages: 4,
};
export const OPTIONAL_LEVELS = 5;
export const MAX_LEVEL = OPTIONAL_LEVELS + 8;

/** Caps at a shrink level: 0 is full; levels 1–5 halve the optional caps; later levels halve the must-keep ones. */
export function capsAt(level: number): LedgerCaps {
  const caps = { ...FULL };
  const optional = Math.min(level, OPTIONAL_LEVELS);
  for (const k of OPTIONAL) caps[k] = Math.max(FLOORS[k] ?? 0, Math.floor(FULL[k] / 2 ** optional));
  if (level >= 3) caps.compactFiles = 1;
  const must = Math.max(0, level - OPTIONAL_LEVELS);
  for (const k of MUST) {
    // Must-keep lists start halving from their real size, not from the "unlimited" cap.
    const base = k === "failingTests" ? FULL.failingTests : 64;
    if (must > 0) caps[k] = Math.max(FLOORS[k] ?? 0, Math.floor(base / 2 ** must));
  }
  return caps;
}

/** The last `n` of a list; none when `n` is 0 (`slice(-0)` would return them all). */
function newest<T>(list: readonly T[], n: number): T[] {
  return n <= 0 ? [] : list.slice(-n);
}

function item(field: string, text: string, cites: string[]): BriefItem {
  return { field, text, cites };
}

function heading(text: string): BriefItem {
  return { field: "heading", text, cites: [] };
}

function withCites(text: string, cites: string[]): string {
  const c = cite(inlineCites(cites));
  return c ? `${text} ${c}` : text;
}

/** A quoted message: the cite on the first line, the words indented below, verbatim up to the cap. */
function quoted(field: string, label: string, m: LedgerMessage, chars: number): BriefItem {
  const body = clip(m.text, chars)
    .split("\n")
    .map((l) => (l.trim() === "" ? "" : `    ${l}`))
    .join("\n");
  const note = m.text.length > chars ? ` (clipped; ${m.text.length} characters in full)` : "";
  return item(field, `${withCites(`**${label}** (turn ${m.turn})${note}:`, m.cites)}\n${body}`, m.cites);
}

function range(first: number, last: number): string {
  return first === last ? `@${first}` : `@${first}–${last}`;
}

/** `git add src/a.ts` ×7, `git add -p` ×3 (2 failed): a head's commands as they were run, the most used first. */
function commandLine(c: LedgerCommand): string {
  const forms = c.forms.length > 0 ? c.forms.slice(0, MAX_FORMS) : [{ form: c.head, runs: c.runs, fails: c.fails }];
  const rest = c.forms.length - forms.length;
  const shown = forms.map((f) => `\`${f.form}\` ×${f.runs}${f.fails ? ` (${f.fails} failed)` : ""}`).join(", ");
  return `${shown}${rest > 0 ? ` (+${rest} more \`${c.head}\`)` : ""}`;
}
const MAX_FORMS = 3;

function failureLine(f: LedgerFailure): string {
  const where = f.path ? ` ${f.path}` : "";
  // The error as it was written; the signature only groups repeats ("N.N npm error" is no one's error text).
  const sig = clip(errorLine(f.lastLine) || f.signature, 160);
  if (f.status === "open")
    return `✗ \`${shownCommand(f.command)}\`${where} ×${f.count} (${range(f.first, f.last)}): ${sig}`;
  const then = f.resolvedBy?.failed ? "no longer reported by the run" : "then passed";
  return `✓ \`${shownCommand(f.command)}\`${where} failed ×${f.count} (${range(f.first, f.last)}) ${then} @${f.resolvedBy?.ordinal}: ${sig}`;
}

function decisionLine(d: LedgerDecision, chars: number): string {
  return `${d.status}: ${clip(d.text.replace(/\s+/g, " "), chars)}`;
}

function checkItem(c: LedgerCheck, caps: LedgerCaps): BriefItem {
  const mark = c.status === "fail" ? "✗" : c.status === "pass" ? "✓" : "?";
  const counts =
    c.failed !== null && c.passed !== null && (c.failed > 0 || c.passed > 0)
      ? `: ${c.failed} failed, ${c.passed} passed`
      : "";
  const history = c.runs > 1 ? ` (${c.runs} runs, ${c.fails} failed)` : "";
  const since = c.answered ? " (a later check passed)" : "";
  let text = withCites(
    `- ${mark} ${c.family} \`${shownCommand(c.command)}\` @${c.ordinal}${counts}${history}${since}`,
    c.cites,
  );
  if (c.status === "fail" && !c.answered) {
    const tests = c.failingTests.slice(0, caps.failingTests);
    if (tests.length > 0)
      text += `\n    failing: ${tests.join("; ")}${c.failingTests.length > tests.length ? `; … ${c.failingTests.length - tests.length} more` : ""}`;
    for (const line of c.errorLines.slice(0, caps.errorLines)) text += `\n    error: ${clip(line, 240)}`;
  }
  return item("check", text, c.cites);
}

export function renderLedger(ledger: Ledger, caps: LedgerCaps): BriefItem[] {
  const out: BriefItem[] = [heading("## Ledger")];
  const h = ledger.handoff;
  if (h) {
    // One line for the brief this session began from; everything below is what happened since.
    const text = `**Since the handoff** @${h.ordinal}: this session began from a brief of session ${h.from}, not repeated here; what follows is what happened after it.`;
    out.push(item("handoff", withCites(text, h.cites), h.cites));
  }
  if (ledger.goal) out.push(quoted("goal", "Goal", ledger.goal, caps.goalChars));
  const latest = ledger.latest.filter((m) => m.cites[0] !== ledger.goal?.cites[0]);
  for (const [i, m] of latest.entries())
    out.push(
      quoted("latest_request", i === latest.length - 1 ? "Latest request" : "Earlier request", m, caps.requestChars),
    );
  if (ledger.goal && latest.length === 0)
    out.push(
      item("latest_request", withCites("**Latest request**: the goal above.", ledger.goal.cites), ledger.goal.cites),
    );

  const s = ledger.step;
  const stepParts: string[] = [];
  if (s.target !== null) stepParts.push(`resuming step ${s.target}`);
  if (s.checkpointStep !== null)
    stepParts.push(
      `last checkpoint: step ${s.checkpointStep} @${s.checkpointOrdinal}${s.label ? ` (${clip(s.label, 80)})` : ""}`,
    );
  if (s.current) stepParts.push(`in progress: ${clip(s.current, 200)}`);
  // A checkpoint that is the handoff itself is said by the line above.
  const onlyHandoff = s.target === null && !s.current && h !== null && s.cites.join() === h.cites.join();
  if (stepParts.length > 0 && !onlyHandoff)
    out.push(item("step", withCites(`**Step**: ${stepParts.join("; ")}`, s.cites), s.cites));

  const requests = newest(ledger.requests, caps.requestsOpen);
  if (requests.length > 0) {
    out.push(heading(`### Requests not done (last outcome)${more(ledger.requests.length, requests.length)}`));
    for (const r of requests)
      out.push(
        item(
          "request_open",
          withCites(`- (turn ${r.turn}) ${r.outcome} (${r.why}): ${clip(r.text, caps.decisionChars)}`, r.cites),
          r.cites,
        ),
      );
  }

  // A constraint inside a request quoted whole above is already there in the user's words.
  const quotedText = [ledger.goal, ...latest]
    .filter(
      (m): m is LedgerMessage =>
        m !== null && m.text.length <= (m === ledger.goal ? caps.goalChars : caps.requestChars),
    )
    .map((m) => m.text)
    .join("\n");
  const constraints = ledger.constraints.filter((c) => !quotedText.includes(c.text)).slice(0, caps.constraints);
  if (constraints.length > 0) {
    out.push(heading("### Constraints (the user's words)"));
    for (const c of constraints)
      out.push(item("constraint", withCites(`- (turn ${c.turn}) ${c.text}`, c.cites), c.cites));
  }

  // A decision the user typed is already here in their words when its message is quoted or gave a constraint.
  const quotedSources = new Set([
    ...constraints.flatMap((c) => c.cites),
    ...[ledger.goal, ...ledger.latest].flatMap((m) => (m ? m.cites : [])),
  ]);
  const listed = ledger.decisions.filter(
    (d) => !(d.who === "user" && d.status !== "superseded" && d.source !== null && quotedSources.has(d.source)),
  );
  const decisions = [
    ...newest(
      listed.filter((d) => d.status === "open"),
      caps.decisionsOpen,
    ),
    ...newest(
      listed.filter((d) => d.status === "settled"),
      caps.decisionsSettled,
    ),
    ...newest(
      listed.filter((d) => d.status === "superseded"),
      caps.decisionsSuperseded,
    ),
  ];
  if (decisions.length > 0) {
    out.push(heading(`### Decisions${more(ledger.decisions.length, decisions.length)}`));
    for (const d of decisions)
      out.push(item(`decision_${d.status}`, withCites(`- ${decisionLine(d, caps.decisionChars)}`, d.cites), d.cites));
  }

  const modified = ledger.files.filter((f) => f.modified).slice(0, caps.filesModified);
  const read = ledger.files.filter((f) => !f.modified).slice(0, caps.filesRead);
  if (modified.length + read.length > 0) {
    out.push(heading(`### Files (newest first)${more(ledger.files.length, modified.length + read.length)}`));
    for (const f of modified) {
      const mark = f.deleted ? "D" : f.movedTo ? "R" : f.writes > 0 && f.edits === 0 ? "A" : "M";
      const counts = [
        f.edits ? `${f.edits} edit${f.edits === 1 ? "" : "s"}` : "",
        f.writes ? `${f.writes} write${f.writes === 1 ? "" : "s"}` : "",
        f.reads ? `${f.reads} read${f.reads === 1 ? "" : "s"}` : "",
      ]
        .filter(Boolean)
        .join(", ");
      const moved = f.movedTo ? ` → ${f.movedTo}` : "";
      const failed = f.failedEdits ? `, ${f.failedEdits} failed edit${f.failedEdits === 1 ? "" : "s"}` : "";
      const lines = f.added || f.removed ? ` +${f.added} −${f.removed}` : "";
      const detail = caps.compactFiles ? "" : `${lines} (${counts}${failed})`;
      out.push(
        item("file_modified", withCites(`- ${mark} ${f.path}${moved}${detail} @${f.lastOrdinal}`, f.cites), f.cites),
      );
    }
    if (read.length > 0) {
      const cites = read.map((f) => f.cites[f.cites.length - 1]!);
      out.push(item("file_read", withCites(`- read only: ${read.map((f) => f.path).join(", ")}`, cites), cites));
    }
  }

  const open = ledger.failures.filter((f) => f.status === "open").slice(0, caps.failuresOpen);
  // Answered failures the user pasted come after the session's own dead ends, which teach what not to repeat.
  const resolved = ledger.failures
    .filter((f) => f.status === "resolved")
    .sort((a, b) => Number(a.pasted === true) - Number(b.pasted === true))
    .slice(0, caps.failuresResolved);
  if (open.length + resolved.length > 0) {
    out.push(heading(`### Failures (open first)${more(ledger.failures.length, open.length + resolved.length)}`));
    for (const f of [...open, ...resolved]) {
      const cites = f.resolvedBy ? [...f.cites, f.resolvedBy.id] : f.cites;
      out.push(item(`failure_${f.status}`, withCites(`- ${failureLine(f)}`, cites), cites));
    }
  }

  const failing = ledger.checks.filter((c) => c.status === "fail" && !c.answered);
  const passing = ledger.checks.filter((c) => c.status !== "fail" || c.answered).slice(0, caps.checksPassing);
  if (failing.length + passing.length > 0) {
    out.push(heading("### Checks (last run of each)"));
    for (const c of [...failing, ...passing]) out.push(checkItem(c, caps));
  }

  const commands = ledger.commands.slice(0, caps.commands);
  if (commands.length > 0) {
    const cites = commands.map((c) => c.cites[c.cites.length - 1]!);
    const list = commands.map(commandLine).join(", ");
    out.push(item("commands", withCites(`**Commands run**: ${list}`, cites), cites));
  }

  const pages = ledger.notebook.slice(0, caps.notebookPages);
  if (pages.length > 0) {
    out.push(heading(`### Notebook (each page's first line)${more(ledger.notebook.length, pages.length)}`));
    for (const p of pages) out.push(item("notebook_page", withCites(`- ${p.name}: ${p.firstLine}`, p.cites), p.cites));
  }

  const openPlan = ledger.plan.filter((p) => p.state !== "completed");
  const shownPlan = openPlan.slice(0, caps.planOpen);
  const done = ledger.plan.length - openPlan.length;
  if (shownPlan.length === 0 && done > 0) {
    // A heading with nothing under it reads as a plan lost; every item done is the fact.
    const cites = ledger.plan.flatMap((p) => p.cites);
    out.push(heading("### Plan"), item("plan_done", withCites(`- all ${done} items done`, cites), cites));
  }
  if (shownPlan.length > 0) {
    out.push(heading(`### Plan (open items${done ? `; ${done} done` : ""})${more(openPlan.length, shownPlan.length)}`));
    for (const p of shownPlan)
      out.push(
        item(
          "plan_item",
          withCites(`- [${p.state === "in_progress" ? "~" : " "}] ${clip(p.text, 300)} (${p.source})`, p.cites),
          p.cites,
        ),
      );
  }
  return out;
}

function more(total: number, shown: number): string {
  return total > shown ? ` — ${shown} of ${total}` : "";
}
