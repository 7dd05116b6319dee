/**
 * `npm run eval:ask`: how much of the judged evidence an ask pack holds. For every hand-judged query of
 * `eval:search` (search-eval/queries.json), over the same real transcripts, builds the evidence pack `cairn ask`
 * would send at 2k and 8k tokens and reports its recall of the judged events (all of them, and the grade-2 ones).
 * Offline: no model is called. Prints figures; asserts nothing. `--verbose` lists each query; `--budgets 2000,32000`
 * chooses the budgets.
 * With a model configured as for `cairn ask` (CAIRN_ASK_PROVIDER/MODEL/URL or --provider/--model/--url), it also asks
 * every query at the largest budget and reports the share of answer sentences making a claim whose citation checks
 * out; without one it says so and calls nothing.
 * Goal: recall ≥ 0.9 at 8k.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { evidencePack } from "../src/app/ask.ts";
import { askQuestion } from "../src/app/ask-answer.ts";
import { chooseModel, createAnswerModel, type ModelChoice } from "../src/app/ask-model.ts";
import { createCairn } from "../src/app/cairn.ts";
import { indexPaths } from "../src/indexer/indexer.ts";
import { refreshVectors } from "../src/search/vectors.ts";
import { openStore } from "../src/store/sqlite/store.ts";
import { evalEmbedder } from "./eval-embedder.ts";
import { loadJudged, QUERY_KINDS, usableFixturePaths } from "./search-eval/judged.ts";

const flag = process.argv.indexOf("--budgets");
const BUDGETS = flag > 0 ? process.argv[flag + 1]!.split(",").map(Number) : [2000, 8000];
const verbose = process.argv.includes("--verbose");
const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};

/** The model the flags or the environment choose, or null (no model: nothing is sent). */
function configuredModel(): ModelChoice | null {
  try {
    return chooseModel({ provider: arg("provider"), model: arg("model"), url: arg("url") }, process.env);
  } catch {
    return null;
  }
}

const dir = mkdtempSync(join(tmpdir(), "cairn-ask-eval-"));
const store = openStore(join(dir, "eval.db"));
const chosen = evalEmbedder();
chosen.choose(store);
const app = createCairn({ store, env: { HOME: dir, ...chosen.env } });
try {
  indexPaths({ store, paths: usableFixturePaths() });
  await refreshVectors(store, chosen.embedder);
  const judged = loadJudged();
  const rows: Array<{
    id: string;
    kind: string;
    budget: number;
    recall: number;
    top: number;
    items: number;
    tokens: number;
  }> = [];
  for (const q of judged) {
    for (const budget of BUDGETS) {
      const pack = await evidencePack(app, { question: q.query, budget });
      const ids = new Set(pack.items.map((i) => i.event_id));
      const all = Object.keys(q.relevant);
      const top = all.filter((id) => q.relevant[id] === 2);
      const share = (list: string[]) => (list.length === 0 ? 1 : list.filter((id) => ids.has(id)).length / list.length);
      rows.push({
        id: q.id,
        kind: q.type,
        budget,
        recall: share(all),
        top: share(top),
        items: pack.items.length,
        tokens: pack.tokens,
      });
    }
  }
  console.log(
    `evidence-pack recall on ${judged.length} hand-judged queries over the real transcripts (${store.counts().events} events)`,
  );
  console.log(
    `${"budget".padEnd(8)} ${"recall".padStart(7)} ${"grade-2".padStart(8)} ${"items".padStart(6)} ${"tokens".padStart(7)}`,
  );
  for (const budget of BUDGETS) {
    const sel = rows.filter((r) => r.budget === budget);
    const mean = (f: (r: (typeof sel)[number]) => number) =>
      sel.reduce((s, r) => s + f(r), 0) / Math.max(1, sel.length);
    // per kind: paraphrases (other words than the transcript's) are bounded by what meaning finds at all
    const kinds = QUERY_KINDS.map((kind) => {
      const of = sel.filter((r) => r.kind === kind);
      return `${kind} ${(of.reduce((s, r) => s + r.recall, 0) / Math.max(1, of.length)).toFixed(3)}`;
    });
    const worded = sel.filter((r) => r.kind !== "paraphrase");
    kinds.push(
      `all but paraphrase ${(worded.reduce((s, r) => s + r.recall, 0) / Math.max(1, worded.length)).toFixed(3)}`,
    );
    console.log(
      `${`${budget / 1000}k`.padEnd(8)} ${mean((r) => r.recall)
        .toFixed(3)
        .padStart(7)} ${mean((r) => r.top)
        .toFixed(3)
        .padStart(8)} ${mean((r) => r.items)
        .toFixed(1)
        .padStart(6)} ${mean((r) => r.tokens)
        .toFixed(0)
        .padStart(7)}`,
    );
    console.log(`${"".padEnd(8)} recall by kind: ${kinds.join(", ")}`);
  }
  await citationShare(judged.map((q) => q.query));
  if (verbose)
    for (const id of new Set(rows.map((r) => r.id)))
      console.log(
        `${id} ${rows
          .filter((r) => r.id === id)
          .map((r) => `${r.budget / 1000}k ${r.recall.toFixed(2)} (${r.items} items)`)
          .join("  ")}`,
      );
} finally {
  app.close();
  rmSync(dir, { recursive: true, force: true });
}

/** With a model: the share of claim sentences whose citation checks out, over every query at the largest budget. */
async function citationShare(questions: string[]): Promise<void> {
  const choice = configuredModel();
  if (!choice) {
    console.log(
      "\nanswer citations: not measured (no model configured; set CAIRN_ASK_URL and CAIRN_ASK_MODEL, or pass --url/--provider with --model)",
    );
    return;
  }
  const model = await createAnswerModel(choice, process.env);
  const budget = Math.max(...BUDGETS);
  let claims = 0;
  let supported = 0;
  let uncited = 0;
  for (const question of questions) {
    const { check } = await askQuestion(app, model, { question, budget });
    claims += check.claims;
    supported += check.supported;
    uncited += check.sentences.filter((x) => x.verdict === "uncited").length;
  }
  console.log(
    `\nanswer citations (${model.name}, ${questions.length} questions at ${budget / 1000}k): ${supported} of ${claims} claim sentences cite evidence that supports them (${(supported / Math.max(1, claims)).toFixed(3)}); ${uncited} cite nothing`,
  );
}
