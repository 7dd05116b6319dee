/**
 * `npm run bench`: runs every `bench/*.bench.ts` in its own Node process (so peak RSS and JIT state are per
 * benchmark) and lets each print its own figures. Benchmarks print; they never assert.
 * `npm run bench -- <name>...` runs only the benchmarks whose file name contains one of the names.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => filters.length === 0 || filters.some((name) => f.includes(name)))
  .sort();

let failed = 0;
for (const file of files) {
  process.stdout.write(`\n=== ${file} ===\n`);
  const result = spawnSync(process.execPath, ["--expose-gc", join(here, file)], { stdio: "inherit" });
  if (result.status !== 0) {
    failed++;
    process.stdout.write(`(${file} exited with ${result.status ?? result.signal})\n`);
  }
}
if (files.length === 0) process.stdout.write("no benchmarks matched\n");
process.exitCode = failed > 0 ? 1 : 0;
