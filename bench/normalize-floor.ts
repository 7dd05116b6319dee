/**
 * What the readers and the topology alone cost on a corpus: every transcript under ROOT read, parsed and normalized
 * into events in this process, nothing stored (no full-text columns, secret scan, writer, bundles or vectors).
 * Printed as JSON: the events and the CPU time. Usage: node bench/normalize-floor.ts ROOT
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { readTranscriptFile } from "../src/indexer/read-file.ts";
import { isTranscriptFile } from "../src/readers/roots.ts";

const root = process.argv[2];
if (!root) throw new Error("usage: normalize-floor.ts ROOT");
const files: string[] = [];
const walk = (dir: string) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path);
    else if (isTranscriptFile(entry.name)) files.push(path);
  }
};
walk(root);
let events = 0;
const c0 = process.cpuUsage();
for (const file of files) {
  readTranscriptFile(file, {
    onBatch(batch) {
      events += batch.events.length;
    },
  });
}
const c = process.cpuUsage(c0);
process.stdout.write(
  `${JSON.stringify({ files: files.length, events, cpu_ms: Math.round((c.user + c.system) / 1000) })}\n`,
);
