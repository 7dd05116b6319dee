/**
 * `npm run eval:outcomes`: request outcomes against hand-labelled requests of real sessions
 * (`outcome-eval/labels.json`: each request's true ending, judged by reading what followed it). A request's
 * outcome is the `outcome` event derived from it. Reports accuracy and precision/recall per label, and with
 * `--list` the requests where cairn disagrees. Prints figures; asserts nothing.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { inspectPaths } from "../src/indexer/inspect.ts";
import { OUTCOMES } from "../src/topology/outcomes.ts";
import { realFixturesDir } from "./corpus.ts";

interface Labels {
  fixtures: string[];
  requests: Array<{ id: string; outcome: string; why: string }>;
}

const labels = JSON.parse(readFileSync(new URL("./outcome-eval/labels.json", import.meta.url), "utf8")) as Labels;
const topo = inspectPaths(
  labels.fixtures.map((f) => join(realFixturesDir(), f)),
  process.cwd(),
);
const found = new Map<string, { outcome: string; why: string }>();
for (const e of topo.events)
  if (e.event_type === "outcome" && e.parent_event_id)
    found.set(e.parent_event_id, { outcome: String(e.meta["outcome"]), why: String(e.meta["why"] ?? "") });

const rows = labels.requests.map((r) => ({ ...r, got: found.get(r.id) ?? null }));
const missing = rows.filter((r) => r.got === null).length;
const right = rows.filter((r) => r.got?.outcome === r.outcome).length;
const ratio = (a: number, b: number) => (b === 0 ? "   -  " : (a / b).toFixed(3).padStart(6));
console.log(
  `request outcomes on ${rows.length} hand-labelled requests of ${labels.fixtures.length} real sessions: accuracy ${ratio(right, rows.length)} (${missing} without an outcome event)`,
);
console.log(`${"label".padEnd(12)} ${"true".padStart(4)} ${"said".padStart(4)} ${"tp".padStart(3)} precision recall`);
for (const label of OUTCOMES) {
  const truth = rows.filter((r) => r.outcome === label).length;
  const said = rows.filter((r) => r.got?.outcome === label).length;
  const tp = rows.filter((r) => r.outcome === label && r.got?.outcome === label).length;
  console.log(
    `${label.padEnd(12)} ${String(truth).padStart(4)} ${String(said).padStart(4)} ${String(tp).padStart(3)} ${ratio(tp, said)}    ${ratio(tp, truth)}`,
  );
}
if (process.argv.includes("--list"))
  for (const r of rows)
    if (r.got?.outcome !== r.outcome)
      console.log(
        `${r.id} true ${r.outcome} (${r.why}); cairn ${r.got ? `${r.got.outcome} (${r.got.why})` : "no outcome"}`,
      );
