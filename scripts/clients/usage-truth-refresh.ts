/**
 * `npm run clients:usage-truth`: counts the usage truth (usage-truth.ts) of every committed client fixture again
 * from its files and writes it into the fixture's truth.json, leaving the rest of it as it is; no CLI runs.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { computeUsageTruth } from "./usage-truth.ts";

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "../../test/fixtures/clients");

for (const agent of readdirSync(FIXTURES).sort())
  for (const version of readdirSync(join(FIXTURES, agent)).sort()) {
    const file = join(FIXTURES, agent, version, "truth.json");
    const { usage: _old, sidecars, ...rest } = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    const usage = computeUsageTruth(agent, join(FIXTURES, agent, version, "home"));
    const next = { ...rest, ...(usage ? { usage } : {}), ...(sidecars ? { sidecars } : {}) };
    writeFileSync(file, `${JSON.stringify(next, null, 2)}\n`);
    process.stderr.write(`[${agent} ${version}] usage: ${JSON.stringify(usage)}\n`);
  }
