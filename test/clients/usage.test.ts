/**
 * The tokens every agent's own CLI recorded in the real-client fixtures (test/fixtures/clients), as cairn indexes
 * them: the calls that count, summed per field, equal the usage truth counted from the raw files by
 * scripts/clients/usage-truth.ts (written to each truth.json by `npm run clients:usage-truth`); an agent that records
 * no call's tokens gives no usage row at all.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compareVersions } from "../../scripts/clients/install.ts";
import { computeUsageTruth, NO_USAGE, type UsageTruth } from "../../scripts/clients/usage-truth.ts";
import type { UsageCall } from "../../src/topology/types.ts";
import { countedCalls } from "../../src/usage/calls.ts";
import { type TempIndex, tempIndex, withStore } from "../helpers/temp-index.ts";
import { REPO } from "../helpers/transcripts.ts";

const ROOT = join(REPO, "test", "fixtures", "clients");

function totals(rows: UsageCall[]): UsageTruth {
  const sum = (f: (r: UsageCall) => number) => rows.reduce((a, r) => a + f(r), 0);
  return {
    calls: rows.length,
    input: sum((r) => r.input),
    output: sum((r) => r.output),
    cacheRead: sum((r) => r.cache_read),
    cacheWrite: sum((r) => r.cache_write + r.cache_write_1h),
    reasoning: sum((r) => r.reasoning),
  };
}

const indexes: TempIndex[] = [];
afterAll(() => {
  for (const i of indexes) i.remove();
});

describe("the tokens the agents' current CLIs recorded", () => {
  for (const agent of readdirSync(ROOT).sort())
    for (const version of readdirSync(join(ROOT, agent)).sort(compareVersions)) {
      const dir = join(ROOT, agent, version);
      const home = join(dir, "home");
      const { usage } = JSON.parse(readFileSync(join(dir, "truth.json"), "utf8")) as { usage?: UsageTruth };
      describe(`${agent} ${version}`, () => {
        const rows = () => {
          const index = tempIndex(`cairn-usage-${agent}-`, [home]);
          indexes.push(index);
          return withStore(index.db, (s) => s.usageCalls());
        };

        it("has its usage truth in truth.json as counted from the files now", () => {
          expect(usage ?? null).toEqual(computeUsageTruth(agent, home));
        });

        if (usage)
          it("sums, over the calls that count, to the truth", () => {
            const all = rows();
            expect(usage.calls).toBeGreaterThan(0);
            expect(totals(countedCalls(all))).toEqual(usage);
            expect(new Set(all.map((r) => r.provider))).toEqual(new Set([agent]));
          });
        else
          it(`gives no usage row (${NO_USAGE[agent] ?? "no reason given"})`, () => {
            expect(NO_USAGE[agent], "an agent without a usage counter says why").toBeDefined();
            expect(rows()).toEqual([]);
          });
      });
    }
});
