/**
 * `npm run eval:resume`: the resume engine on the real transcripts (issue 4's "Must show").
 * For each session with enough history, cut at 25 %, 50 % and 75 % of its events (each cut followed by at least
 * W = 100 events), build briefs at 3 %, 10 % and 30 % of the original and report held-out predictive recall beside
 * tail truncation at the same budget, with coverage, entity overlap, ratio and build time; then the build time of
 * whole-session briefs. Prints figures; asserts nothing (`--json` prints the rows as JSON instead).
 * Then the same per agent over cuts every 5 % from 15 % to 95 % (resume-cuts.ts).
 * Goals: recall ≥ 0.85 at 10 % and ≥ 0.60 at 3 %, above the baseline at every budget, coverage 1.0, build ≤ 200 ms
 * for a 2.4 MB session; per agent, above tail at every budget, and on pi and Claude ≥ 0.80 at 3 %, ≥ 0.95 at 10 %.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { indexPaths } from "../src/indexer/indexer.ts";
import { createResumeEngine } from "../src/resume/engine.ts";
import { createTokenCounter } from "../src/resume/tokens.ts";
import { openStore } from "../src/store/sqlite/store.ts";
import type { SessionEvent } from "../src/topology/types.ts";
import { realFixturesDir } from "./corpus.ts";
import { agentGoals, fineCutRows, printAgentTable, summariseByAgent } from "./resume-cuts.ts";
import { ledgerNoise } from "./resume-noise.ts";
import { ENTITY_TYPES, type EntityType, goldEntities, isPrimary, recallOf, tailTruncate } from "./resume-recall.ts";

const BUDGETS = [0.03, 0.1, 0.3] as const;
const CUTS = [0.25, 0.5, 0.75] as const;
const WINDOW = 100;
const MIN_EVENTS = 200;
/** A 3 % brief of less than this many tokens of history is smaller than its own header and goal. */
const MIN_PREFIX_TOKENS = 20_000;
const json = process.argv.includes("--json");
/** A structure-only fixture: its text was replaced by placeholders, so no entity can be recalled from it. */
const redacted = (events: readonly SessionEvent[]) =>
  events.filter((e) => /\[REDACTED_/.test(e.text)).length > events.length / 4;

interface Row {
  session: string;
  cut: number;
  budget: number;
  gold: number;
  recall: number;
  baseline: number;
  byType: Record<EntityType, [number, number, number]>;
  coverage: number;
  overlap: number;
  ratio: number;
  tokens: number;
  budgetTokens: number;
  ms: number;
  /** Ledger lines counted by the noise check, and those that are pasted machine output. */
  ledgerLines: number;
  noisy: string[];
}

const dir = mkdtempSync(join(tmpdir(), "cairn-eval-"));
const store = openStore(join(dir, "eval.db"));
try {
  indexPaths({ store, paths: [realFixturesDir()] });
  const counter = createTokenCounter();
  counter.count("warm the tokenizer up");
  const engine = createResumeEngine({ store, counter });
  const rows: Row[] = [];
  const log = (s: string) => {
    if (!json) console.log(s);
  };

  log(`held-out predictive recall, W = ${WINDOW} events, tokenizer ${counter.name}`);
  log(
    `${"session".padEnd(22)} ${"cut".padStart(5)} ${"budget".padStart(6)} ${"gold".padStart(5)}  recall  tail   files   cmds    errors  idents  cover  overlap ratio  ms`,
  );
  for (const s of store.listSessions({}).sort((a, b) => (a.source_file < b.source_file ? -1 : 1))) {
    const events = store.sessionEvents(s.session_id);
    const name = s.source_file.replace(/^.*\//, "").slice(0, 22);
    if (events.length < MIN_EVENTS) continue;
    if (redacted(events)) {
      log(`${name.padEnd(22)} skipped: its text is redacted (structure-only fixture)`);
      continue;
    }
    const primary = events.filter(isPrimary);
    for (const f of CUTS) {
      const cutIndex = Math.floor(primary.length * f);
      if (primary.length - cutIndex - 1 < WINDOW) continue;
      const cut = primary[cutIndex]!;
      const windowEnd = primary[cutIndex + WINDOW]!.ordinal;
      const prefix = events.filter((e) => e.ordinal <= cut.ordinal);
      const window = events.filter((e) => e.ordinal > cut.ordinal && e.ordinal <= windowEnd);
      const prefixTokens = prefix.filter(isPrimary).reduce((n, e) => n + e.tokens, 0);
      if (prefixTokens < MIN_PREFIX_TOKENS) continue;
      const gold = goldEntities(prefix, window, s.cwd);
      for (const b of BUDGETS) {
        const t0 = performance.now();
        const brief = engine.brief({ sessionId: s.session_id, at: cut.event_id, ratio: b, ladder: false });
        const ms = performance.now() - t0;
        const ours = recallOf(brief.text, gold);
        const base = recallOf(
          tailTruncate(prefix as SessionEvent[], brief.budget_tokens, (x) => counter.count(x)),
          gold,
        );
        const noise = ledgerNoise(brief.text);
        const byType = Object.fromEntries(
          ENTITY_TYPES.map((t) => [t, [ours.byType[t].hit, base.byType[t].hit, ours.byType[t].total]]),
        ) as Row["byType"];
        const row: Row = {
          session: name,
          cut: cut.ordinal,
          budget: b,
          gold: gold.length,
          recall: ours.all,
          baseline: base.all,
          byType,
          coverage: brief.validation.coverage,
          overlap: brief.validation.entity_overlap,
          ratio: brief.validation.ratio,
          tokens: brief.tokens,
          budgetTokens: brief.budget_tokens,
          ms,
          ledgerLines: noise.lines,
          noisy: noise.noisy,
        };
        rows.push(row);
        const typeCell = (t: EntityType) => {
          const [h, , n] = byType[t];
          return (n === 0 ? "-" : `${h}/${n}`).padEnd(7);
        };
        log(
          `${name.padEnd(22)} ${String(cut.ordinal).padStart(5)} ${`${b * 100}%`.padStart(6)} ${String(gold.length).padStart(5)}  ${row.recall.toFixed(2)}    ${row.baseline.toFixed(2)}   ${typeCell("file")} ${typeCell("command")} ${typeCell("error")} ${typeCell("identifier")} ${row.coverage.toFixed(2)}   ${row.overlap.toFixed(2)}   ${row.ratio.toFixed(3)} ${ms.toFixed(0)}`,
        );
      }
    }
  }

  log("\nmeans over all cuts (recall micro-averaged over gold entities; others over briefs)");
  log("budget  briefs  recall  tail    coverage  overlap  ratio   build ms (max)");
  const summary = BUDGETS.map((b) => {
    const rs = rows.filter((r) => r.budget === b);
    const gold = rs.reduce((n, r) => n + r.gold, 0);
    const micro = (k: "recall" | "baseline") => rs.reduce((n, r) => n + r[k] * r.gold, 0) / Math.max(1, gold);
    const mean = (k: "coverage" | "overlap" | "ratio" | "ms") =>
      rs.reduce((n, r) => n + r[k], 0) / Math.max(1, rs.length);
    const s = {
      budget: b,
      briefs: rs.length,
      recall: micro("recall"),
      baseline: micro("baseline"),
      coverage: mean("coverage"),
      minCoverage: Math.min(...rs.map((r) => r.coverage)),
      overlap: mean("overlap"),
      ratio: mean("ratio"),
      ms: mean("ms"),
      maxMs: Math.max(...rs.map((r) => r.ms)),
    };
    log(
      `${`${b * 100}%`.padStart(6)}  ${String(s.briefs).padStart(6)}  ${s.recall.toFixed(3)}   ${s.baseline.toFixed(3)}   ${s.coverage.toFixed(3)} (min ${s.minCoverage.toFixed(2)})  ${s.overlap.toFixed(3)}   ${s.ratio.toFixed(3)}   ${s.ms.toFixed(0)} (${s.maxMs.toFixed(0)})`,
    );
    return s;
  });

  log(`\nper agent, cuts every 5 % from 15 % to 95 % (window up to ${WINDOW} events), beside tail truncation`);
  const fine = fineCutRows({
    store,
    engine,
    counter,
    budgets: BUDGETS,
    window: WINDOW,
    minEvents: MIN_EVENTS,
    minPrefixTokens: MIN_PREFIX_TOKENS,
    skip: redacted,
  });
  const byAgent = summariseByAgent(fine, BUDGETS);
  printAgentTable(byAgent, log);

  // Noise is counted in the cut briefs above and in a whole-session brief of every session (short ones too: a
  // pasted log is as likely in a short session, and that is the brief a user sees first).
  const whole = store
    .listSessions({})
    .map((s) => ledgerNoise(engine.brief({ sessionId: s.session_id, ratio: 0.1 }).text));
  const ledgerLines = rows.reduce((n, r) => n + r.ledgerLines, 0) + whole.reduce((n, w) => n + w.lines, 0);
  const noisy = [...new Set([...rows.flatMap((r) => r.noisy), ...whole.flatMap((w) => w.noisy)])];
  const noisyLines = rows.reduce((n, r) => n + r.noisy.length, 0) + whole.reduce((n, w) => n + w.noisy.length, 0);
  const noiseShare = noisyLines / Math.max(1, ledgerLines);
  log(
    `\nledger noise: ${noisyLines} of ${ledgerLines} ledger lines (quotes, constraints, decisions, files, plan; ${rows.length} cut briefs and ${whole.length} whole sessions) are pasted machine output: ${noiseShare.toFixed(3)}`,
  );
  for (const l of noisy.slice(0, 10)) log(`  noise: ${l.slice(0, 140)}`);

  log("\nwhole-session briefs (best of 5 builds, tokenizer loaded, no ladder)");
  const builds: Array<{ file: string; mb: number; budget: number; ms: number; tokens: number }> = [];
  for (const s of store.listSessions({})) {
    const mb = statSync(s.source_file).size / 1048576;
    if (mb < 0.5) continue;
    for (const b of BUDGETS) {
      let best = Number.POSITIVE_INFINITY;
      let tokens = 0;
      for (let i = 0; i < 5; i++) {
        const t0 = performance.now();
        tokens = engine.brief({ sessionId: s.session_id, ratio: b, ladder: false }).tokens;
        best = Math.min(best, performance.now() - t0);
      }
      builds.push({ file: s.source_file.replace(/^.*\//, ""), mb, budget: b, ms: best, tokens });
      log(
        `${s.source_file.replace(/^.*\//, "").slice(0, 40).padEnd(40)} ${mb.toFixed(1)} MB  ${`${b * 100}%`.padStart(4)}  ${String(tokens).padStart(6)} tokens  ${best.toFixed(0)} ms`,
      );
    }
  }

  const at = (b: number) => summary.find((s) => s.budget === b)!;
  const largest = builds.filter((x) => x.mb >= 2).reduce((m, x) => Math.max(m, x.ms), 0);
  const goals = [
    [`recall at 10 % ≥ 0.85`, at(0.1).recall >= 0.85, at(0.1).recall.toFixed(3)],
    [`recall at 3 % ≥ 0.60`, at(0.03).recall >= 0.6, at(0.03).recall.toFixed(3)],
    [
      "recall above tail truncation at every budget",
      summary.every((s) => s.recall > s.baseline),
      summary.map((s) => `${s.recall.toFixed(2)} vs ${s.baseline.toFixed(2)}`).join(", "),
    ],
    [
      "coverage 1.0",
      summary.every((s) => s.minCoverage === 1),
      summary.map((s) => s.minCoverage.toFixed(2)).join(", "),
    ],
    ["build ≤ 200 ms for a 2.4 MB session", largest <= 200, `${largest.toFixed(0)} ms`],
    ["ledger noise share 0", noisyLines === 0, noiseShare.toFixed(3)],
    ...agentGoals(byAgent),
  ] as const;
  log("\ngoals");
  for (const [what, ok, value] of goals) log(`  ${ok ? "met " : "MISS"}  ${what}: ${value}`);
  if (json)
    console.log(
      JSON.stringify({ rows, summary, byAgent, fine, builds, noise: { ledgerLines, noisyLines }, goals }, null, 2),
    );
} finally {
  store.close();
  rmSync(dir, { recursive: true, force: true });
}
