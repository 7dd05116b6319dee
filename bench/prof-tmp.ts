import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { readTranscriptFile } from "../src/indexer/read-file.ts";
import { isTranscriptFile } from "../src/readers/roots.ts";

const [root, secs] = [process.argv[2]!, Number(process.argv[3] ?? 10)];
const files: string[] = [];
const walk = (d: string) => {
  for (const n of readdirSync(d).sort()) {
    const p = join(d, n);
    if (statSync(p).isDirectory()) walk(p);
    else if (isTranscriptFile(n)) files.push(p);
  }
};
walk(root);
const t0 = Date.now();
let ev = 0,
  runs = 0;
while (Date.now() - t0 < secs * 1000) {
  for (const f of files)
    readTranscriptFile(f, {
      takeUnterminated: true,
      onBatch(b) {
        ev += b.events.length;
      },
    });
  runs++;
}
console.log(files.length, "files", runs, "runs", ev, "events");
