/**
 * Reads every transcript under a folder again and again for some seconds, through the indexer's own reading
 * (reader and normalizer), so that a profile of it is the parse and nothing else:
 * `node --cpu-prof bench/parse-loop.ts test/fixtures/clients/continue 10`. The figure to compare is
 * `npm run bench -- parse`; this is for finding where an agent's time goes.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { readTranscriptFile } from "../src/indexer/read-file.ts";
import { isTranscriptFile } from "../src/readers/roots.ts";

const root = process.argv[2];
const seconds = Number(process.argv[3] ?? 10);
if (!root) throw new Error("usage: node bench/parse-loop.ts <folder> [seconds]");

const files: string[] = [];
const walk = (dir: string) => {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (isTranscriptFile(name, path)) files.push(path);
  }
};
walk(root);

const until = Date.now() + seconds * 1000;
let events = 0;
let rounds = 0;
while (Date.now() < until) {
  for (const file of files)
    readTranscriptFile(file, {
      takeUnterminated: true,
      onBatch(batch) {
        events += batch.events.length;
      },
    });
  rounds++;
}
console.log(`${files.length} files read ${rounds} times: ${events} events`);
