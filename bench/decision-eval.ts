/**
 * `npm run eval:decisions`: the decision detector against the hand-labelled messages of six real sessions
 * (`decision-eval/labels.json`, judged by reading before the detector's output was looked at; see the README
 * beside it). A message counts as detected when a `decision` event is derived from it. Reports precision and
 * recall per split (the rules were tuned on `tune`; `heldout` was only scored), recall on the messages that make a
 * decision first (not restating one), how often the detector names who decided, and the rules that fired.
 * Prints figures; asserts nothing. `--list` prints the misses and false alarms of the tune split
 * (`--list heldout` or `--list all` for the others); `--json` prints the per-message rows.
 * Goal: precision ≥ 0.9 and recall ≥ 0.8.
 */
import { join } from "node:path";
import { inspectPaths } from "../src/indexer/inspect.ts";
import { realFixturesDir } from "./corpus.ts";
import { type DecisionLabel, type LabelledMessage, loadLabels, type Split } from "./decision-eval/labels.ts";

const args = process.argv.slice(2);
const json = args.includes("--json");
const listAt = args.indexOf("--list");
const listSplit = listAt === -1 ? null : (args[listAt + 1] ?? "tune");

interface Row {
  id: string;
  split: Split;
  role: string;
  label: DecisionLabel | null;
  detected: Array<{ rule: string; who: string | null; text: string }>;
  excerpt: string;
}

const labels = loadLabels();
const splitOf = new Map(labels.sessions.map((s) => [s.session_id, s.split]));
const topo = inspectPaths(
  labels.sessions.map((s) => join(realFixturesDir(), s.fixture)),
  process.cwd(),
);
const fromMessage = new Map<string, Row["detected"]>();
for (const e of topo.events) {
  if (e.event_type !== "decision" || e.parent_event_id === null) continue;
  const list = fromMessage.get(e.parent_event_id) ?? [];
  const who = typeof e.meta["who"] === "string" ? (e.meta["who"] as string) : null;
  list.push({ rule: String(e.meta["rule"] ?? "?"), who, text: e.text });
  fromMessage.set(e.parent_event_id, list);
}
const labelled = new Set(labels.messages.map((m) => m.id));
const unlabelled = [...fromMessage.keys()].filter((id) => !labelled.has(id)).length;
const rows: Row[] = labels.messages.map((m: LabelledMessage) => ({
  id: m.id,
  split: splitOf.get(m.session_id) ?? "tune",
  role: m.role,
  label: m.decision,
  detected: fromMessage.get(m.id) ?? [],
  excerpt: m.excerpt,
}));

if (json) {
  console.log(JSON.stringify(rows, null, 2));
} else {
  const scored = (sel: Row[]) => {
    const tp = sel.filter((r) => r.label && r.detected.length > 0).length;
    const fp = sel.filter((r) => !r.label && r.detected.length > 0).length;
    const fn = sel.filter((r) => r.label && r.detected.length === 0).length;
    const origin = sel.filter((r) => r.label && !r.label.restates);
    const originHit = origin.filter((r) => r.detected.length > 0).length;
    const named = sel.filter((r) => r.label && r.detected[0]?.who);
    const whoRight = named.filter((r) => r.detected[0]!.who === r.label!.who).length;
    return { tp, fp, fn, origin: origin.length, originHit, named: named.length, whoRight };
  };
  const ratio = (a: number, b: number) => (b === 0 ? "   -  " : (a / b).toFixed(3).padStart(6));
  console.log(
    `decision detection on ${rows.length} hand-labelled messages of ${labels.sessions.length} real sessions (${rows.filter((r) => r.label).length} decisions)`,
  );
  console.log(
    `${"split".padEnd(16)} ${"msgs".padStart(5)} ${"dec".padStart(4)} ${"tp".padStart(4)} ${"fp".padStart(4)} ${"fn".padStart(4)} precision recall  first-recall  who-right`,
  );
  for (const split of ["tune", "heldout", "all"] as const) {
    const sel = rows.filter((r) => split === "all" || r.split === split);
    const s = scored(sel);
    console.log(
      `${split.padEnd(16)} ${String(sel.length).padStart(5)} ${String(s.tp + s.fn).padStart(4)} ${String(s.tp).padStart(4)} ${String(s.fp).padStart(4)} ${String(s.fn).padStart(4)} ${ratio(s.tp, s.tp + s.fp)}    ${ratio(s.tp, s.tp + s.fn)}  ${ratio(s.originHit, s.origin)}        ${ratio(s.whoRight, s.named)}`,
    );
  }
  for (const role of ["user", "assistant"] as const) {
    const s = scored(rows.filter((r) => r.role === role));
    console.log(
      `  ${`${role} messages`.padEnd(18)} precision ${ratio(s.tp, s.tp + s.fp)}  recall ${ratio(s.tp, s.tp + s.fn)}`,
    );
  }
  const rules = new Map<string, [number, number]>();
  for (const r of rows)
    for (const d of r.detected) {
      const c = rules.get(d.rule) ?? [0, 0];
      c[r.label ? 0 : 1]++;
      rules.set(d.rule, c);
    }
  console.log(
    `rules (right / wrong): ${[...rules].map(([k, [a, b]]) => `${k} ${a}/${b}`).join(", ") || "none fired"}; ${unlabelled} decisions from events outside the set (tool results, reasoning)`,
  );
  console.log("goal: precision ≥ 0.9, recall ≥ 0.8 (held-out split scored only, never tuned on)");
  if (listSplit) {
    for (const r of rows) {
      if (listSplit !== "all" && r.split !== listSplit) continue;
      const hit = r.detected.length > 0;
      if (Boolean(r.label) === hit) continue;
      const tag = r.label ? "MISS" : "FALSE";
      const why = r.label
        ? `chosen: ${r.label.chosen}`
        : `${r.detected[0]!.rule}: ${r.detected[0]!.text.slice(0, 140)}`;
      console.log(`${tag} ${r.id} ${r.role.padEnd(9)} ${r.excerpt.slice(0, 70)}\n      ${why}`);
    }
  }
}
