/**
 * Recall per agent over fine cuts (issue 17's "Must show"): every session long enough is cut at every 5 % of its
 * primary events from 15 % to 95 %, briefs are built at each budget share, and each is scored against tail
 * truncation of the same size. The window after a late cut is shorter than W (there are fewer events left), down to
 * MIN_WINDOW; cuts with less history than a 3 % brief's header are skipped, as in the main table.
 */
import type { ResumeEngine } from "../src/resume/engine.ts";
import type { TokenCounter } from "../src/resume/tokens.ts";
import type { ReadonlyStore } from "../src/store/types.ts";
import type { SessionEvent } from "../src/topology/types.ts";
import { goldEntities, isPrimary, recallOf, tailTruncate } from "./resume-recall.ts";

export const FINE_CUTS = Array.from({ length: 17 }, (_, i) => (15 + 5 * i) / 100);
const MIN_WINDOW = 20;

export interface CutRow {
  agent: string;
  session: string;
  cut: number;
  budget: number;
  gold: number;
  recall: number;
  tail: number;
  tokens: number;
  budgetTokens: number;
}

export interface AgentSummary {
  agent: string;
  budget: number;
  briefs: number;
  recall: number;
  tail: number;
  ahead: number;
  tied: number;
  behind: number;
  /** Briefs larger than their budget (the ladder is off here, so any is a defect). */
  over: number;
}

export interface FineCutInput {
  store: ReadonlyStore;
  engine: ResumeEngine;
  counter: TokenCounter;
  budgets: readonly number[];
  window: number;
  minEvents: number;
  minPrefixTokens: number;
  skip: (events: readonly SessionEvent[]) => boolean;
}

export function fineCutRows(input: FineCutInput): CutRow[] {
  const { store, engine, counter } = input;
  const rows: CutRow[] = [];
  for (const s of store.listSessions({}).sort((a, b) => (a.source_file < b.source_file ? -1 : 1))) {
    const events = store.sessionEvents(s.session_id);
    if (events.length < input.minEvents || input.skip(events)) continue;
    const primary = events.filter(isPrimary);
    const session = s.source_file.replace(/^.*\//, "").slice(0, 22);
    const seen = new Set<number>();
    for (const f of FINE_CUTS) {
      const cutIndex = Math.floor(primary.length * f);
      const windowSize = Math.min(input.window, primary.length - cutIndex - 1);
      if (windowSize < MIN_WINDOW || seen.has(cutIndex)) continue;
      seen.add(cutIndex);
      const cut = primary[cutIndex]!;
      const windowEnd = primary[cutIndex + windowSize]!.ordinal;
      const prefix = events.filter((e) => e.ordinal <= cut.ordinal);
      const window = events.filter((e) => e.ordinal > cut.ordinal && e.ordinal <= windowEnd);
      if (prefix.filter(isPrimary).reduce((n, e) => n + e.tokens, 0) < input.minPrefixTokens) continue;
      const gold = goldEntities(prefix, window, s.cwd);
      if (gold.length === 0) continue;
      for (const b of input.budgets) {
        const brief = engine.brief({ sessionId: s.session_id, at: cut.event_id, ratio: b, ladder: false });
        const tail = tailTruncate(prefix as SessionEvent[], brief.budget_tokens, (x) => counter.count(x));
        rows.push({
          agent: s.provider,
          session,
          cut: f,
          budget: b,
          gold: gold.length,
          recall: recallOf(brief.text, gold).all,
          tail: recallOf(tail, gold).all,
          tokens: brief.tokens,
          budgetTokens: brief.budget_tokens,
        });
      }
    }
  }
  return rows;
}

/** Micro-averaged recall per agent and budget, with how many cuts the brief led, tied or trailed the tail. */
export function summariseByAgent(rows: readonly CutRow[], budgets: readonly number[]): AgentSummary[] {
  const agents = [...new Set(rows.map((r) => r.agent))].sort();
  const out: AgentSummary[] = [];
  for (const agent of agents)
    for (const budget of budgets) {
      const rs = rows.filter((r) => r.agent === agent && r.budget === budget);
      const gold = rs.reduce((n, r) => n + r.gold, 0);
      const micro = (k: "recall" | "tail") => rs.reduce((n, r) => n + r[k] * r.gold, 0) / Math.max(1, gold);
      out.push({
        agent,
        budget,
        briefs: rs.length,
        recall: micro("recall"),
        tail: micro("tail"),
        ahead: rs.filter((r) => r.recall > r.tail + 1e-9).length,
        tied: rs.filter((r) => Math.abs(r.recall - r.tail) <= 1e-9).length,
        behind: rs.filter((r) => r.recall < r.tail - 1e-9).length,
        over: rs.filter((r) => r.tokens > r.budgetTokens).length,
      });
    }
  return out;
}

export function printAgentTable(summary: readonly AgentSummary[], log: (s: string) => void): void {
  log("agent        budget  briefs  recall  tail    ahead/tied/behind  over budget");
  for (const s of summary)
    log(
      `${s.agent.padEnd(12)} ${`${Math.round(s.budget * 100)}%`.padStart(6)}  ${String(s.briefs).padStart(6)}  ${s.recall.toFixed(3)}   ${s.tail.toFixed(3)}   ${`${s.ahead}/${s.tied}/${s.behind}`.padEnd(17)}  ${s.over}`,
    );
}

/** The issue's goals per agent: ahead of the tail at every budget; on pi and Claude ≥ 0.80 at 3 %, ≥ 0.95 at 10 %. */
export function agentGoals(summary: readonly AgentSummary[]): Array<[string, boolean, string]> {
  const goals: Array<[string, boolean, string]> = [];
  for (const agent of [...new Set(summary.map((s) => s.agent))]) {
    const mine = summary.filter((s) => s.agent === agent && s.briefs > 0);
    goals.push([
      `${agent}: recall above tail at every budget (cuts 15–95 %)`,
      mine.every((s) => s.recall > s.tail),
      mine.map((s) => `${s.recall.toFixed(2)} vs ${s.tail.toFixed(2)}`).join(", "),
    ]);
    if (agent !== "pi" && agent !== "claude") continue;
    const at = (b: number) => mine.find((s) => s.budget === b);
    const three = at(0.03);
    const ten = at(0.1);
    if (three) goals.push([`${agent}: recall at 3 % ≥ 0.80`, three.recall >= 0.8, three.recall.toFixed(3)]);
    if (ten) goals.push([`${agent}: recall at 10 % ≥ 0.95`, ten.recall >= 0.95, ten.recall.toFixed(3)]);
  }
  return goals;
}
