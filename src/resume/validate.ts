/**
 * Validation of a brief (resume-method §4.7): coverage of the must-keep facts, entity overlap with the session as
 * of the cut (the seed's "overlap > 0.8" made measurable), and the compression ratio. Facts are looked for in the
 * whole brief text, whitespace-insensitively, wherever the builder put them.
 */
import { clip } from "../topology/text.ts";
import type { MustKeep, Validation } from "./brief-types.ts";
import { commandHead, mentionsCommand, signatureView, weightedJaccard } from "./entities.ts";
import { errorLine } from "./failures.ts";
import type { Ledger } from "./ledger-types.ts";
import type { Timeline } from "./timeline.ts";

export const MIN_COVERAGE = 0.95;
export const MIN_OVERLAP = 0.8;

function squash(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

/** A prefix short enough to survive the ledger's tightest clip of that field. */
function head(text: string, chars: number): string {
  const t = squash(text);
  return t.length <= chars ? t : t.slice(0, chars);
}

export function mustKeep(ledger: Ledger): MustKeep[] {
  const out: MustKeep[] = [];
  for (const f of ledger.files) if (f.modified) out.push({ kind: "modified_file", needle: f.path });
  for (const f of ledger.failures)
    if (f.status === "open")
      out.push({ kind: "open_failure", needle: clip(f.signature, 160), shown: head(errorLine(f.lastLine), 120) });
  for (const c of ledger.checks) {
    if (c.status !== "fail" || c.answered) continue;
    out.push({ kind: "failing_check", needle: head(c.command, 60) });
    for (const t of c.failingTests) out.push({ kind: "failing_test", needle: t });
  }
  for (const d of ledger.decisions)
    if (d.status === "open") out.push({ kind: "open_decision", needle: head(d.text, 90) });
  for (const p of ledger.plan) if (p.state !== "completed") out.push({ kind: "plan_item", needle: head(p.text, 90) });
  for (const c of ledger.constraints) out.push({ kind: "constraint", needle: squash(c.text) });
  if (ledger.step.target !== null) out.push({ kind: "step", needle: `step ${ledger.step.target}` });
  else if (ledger.step.current) out.push({ kind: "step", needle: head(ledger.step.current, 90) });
  const latest = ledger.latest[ledger.latest.length - 1];
  if (latest) out.push({ kind: "latest_request", needle: head(latest.text, 180) });
  return out;
}

/** The session's entities as of the cut, weighted: modified files and open failures count double. */
export function sessionEntities(t: Timeline, ledger: Ledger): Map<string, number> {
  const out = new Map<string, number>();
  for (const f of ledger.files) out.set(`file:${f.path}`, f.modified ? 2 : 1);
  for (const c of ledger.commands) out.set(`command:${c.head}`, 1);
  for (const f of ledger.failures) {
    // A failure the user reported and the session since answered is history, not a name the next agent works with.
    if (f.pasted && f.status === "resolved") continue;
    out.set(`error:${f.signature}`, f.status === "open" ? 2 : 1);
  }
  // Error signatures the failure groups leave out (looking-around misses) still name what went wrong.
  for (const e of t.events)
    if (
      e.event_type === "error" &&
      e.meta["pasted"] !== true &&
      typeof e.meta["signature"] === "string" &&
      e.command &&
      commandHead(e.command)
    )
      if (!out.has(`error:${e.meta["signature"]}`)) out.set(`error:${e.meta["signature"]}`, 1);
  return out;
}

/**
 * Files whose base name no other file of the session shares, by path: such a name says which file it is (the
 * names in play label their lines that way), so the brief names the file when it names its base.
 */
function uniqueBaseNames(entities: ReadonlyMap<string, number>): Map<string, string> {
  const paths = [...entities.keys()].filter((k) => k.startsWith("file:")).map((k) => k.slice(5));
  const count = new Map<string, number>();
  const base = (p: string) => p.slice(p.lastIndexOf("/") + 1);
  for (const p of paths) count.set(base(p), (count.get(base(p)) ?? 0) + 1);
  return new Map(paths.filter((p) => count.get(base(p)) === 1 && base(p) !== p).map((p) => [p, base(p)]));
}

/** `name` as a whole file name in the text: not the tail of a longer one (`text.ts` inside `truncated-text.ts`). */
function mentionsName(text: string, name: string): boolean {
  for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + 1)) {
    const before = text[at - 1];
    const after = text[at + name.length];
    if ((before === undefined || /[\s`(/"']/.test(before)) && (after === undefined || !/[\w.-]/.test(after)))
      return true;
  }
  return false;
}

export interface ValidateInput {
  text: string;
  tokens: number;
  originalTokens: number;
  ledger: Ledger;
  entities: ReadonlyMap<string, number>;
}

export function validateBrief(input: ValidateInput): Validation {
  const flat = squash(input.text);
  let view: string | null = null;
  const sigView = () => {
    view ??= squash(signatureView(input.text));
    return view;
  };
  const atoms = mustKeep(input.ledger);
  const missing: string[] = [];
  const found = (a: MustKeep) =>
    flat.includes(a.needle) ||
    (a.kind === "open_failure" &&
      ((a.shown !== undefined && a.shown !== "" && flat.includes(a.shown)) || sigView().includes(squash(a.needle))));
  const tally = { constraint: [0, 0], open_failure: [0, 0] };
  let hit = 0;
  for (const a of atoms) {
    const ok = found(a);
    if (ok) hit++;
    else missing.push(`${a.kind}: ${clip(a.needle, 120)}`);
    if (a.kind === "constraint" || a.kind === "open_failure") {
      tally[a.kind][1]!++;
      if (ok) tally[a.kind][0]!++;
    }
  }
  const present = new Map<string, number>();
  const byBase = uniqueBaseNames(input.entities);
  // The brief quotes a failure's error as written; its signature is in the brief when that line is.
  const written = new Map<string, string[]>();
  for (const f of input.ledger.failures) {
    const line = head(errorLine(f.lastLine), 120);
    if (line !== "") written.set(f.signature, [...(written.get(f.signature) ?? []), line]);
  }
  for (const [key, w] of input.entities) {
    const colon = key.indexOf(":");
    const kind = key.slice(0, colon);
    const value = key.slice(colon + 1);
    const inBrief =
      kind === "file"
        ? flat.includes(value) || (byBase.has(value) && mentionsName(flat, byBase.get(value)!))
        : kind === "command"
          ? mentionsCommand(input.text, value)
          : (written.get(value)?.some((l) => flat.includes(l)) ?? false) || sigView().includes(squash(value));
    if (inBrief) present.set(key, w);
  }
  const coverage = atoms.length === 0 ? 1 : hit / atoms.length;
  const share = ([n, d]: number[]) => (d === 0 ? 1 : n! / d!);
  const constraint_coverage = share(tally.constraint);
  const open_failure_coverage = share(tally.open_failure);
  const entity_overlap = weightedJaccard(input.entities, present);
  return {
    coverage: round(coverage),
    missing,
    constraint_coverage: round(constraint_coverage),
    open_failure_coverage: round(open_failure_coverage),
    entity_overlap: round(entity_overlap),
    ratio: round(input.originalTokens === 0 ? 0 : input.tokens / input.originalTokens),
    ok:
      coverage >= MIN_COVERAGE &&
      constraint_coverage === 1 &&
      open_failure_coverage === 1 &&
      entity_overlap >= MIN_OVERLAP,
  };
}

function round(x: number): number {
  return Math.round(x * 10000) / 10000;
}
