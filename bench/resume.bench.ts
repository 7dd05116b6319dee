/**
 * Resume brief build time on the real transcripts: each session of at least 0.5 MB, whole, at 3 %, 10 % and 30 % of
 * its size, with the tokenizer loaded and no ladder (what one `cairn resume` costs after the process has started).
 * Best and median of 7 builds. Goal (issue 4): ≤ 200 ms for a 2.4 MB session. Prints; asserts nothing.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { indexPaths } from "../src/indexer/indexer.ts";
import { createResumeEngine } from "../src/resume/engine.ts";
import { createTokenCounter } from "../src/resume/tokens.ts";
import { openStore } from "../src/store/sqlite/store.ts";
import { realFixturesDir } from "./corpus.ts";

const RATIOS = [0.03, 0.1, 0.3] as const;
const RUNS = 7;

const dir = mkdtempSync(join(tmpdir(), "cairn-bench-resume-"));
const store = openStore(join(dir, "bench.db"));
try {
  indexPaths({ store, paths: [realFixturesDir()] });
  const counter = createTokenCounter();
  counter.count("warm the tokenizer up");
  const engine = createResumeEngine({ store, counter });
  console.log(`resume build, best and median of ${RUNS} (tokenizer ${counter.name}, no ladder)`);
  console.log(`${"session file".padEnd(44)} ${"MB".padStart(5)} ratio  tokens   best  median`);
  let largest = { mb: 0, ms: 0 };
  const sessions = store
    .listSessions({})
    .filter((s) => statSync(s.source_file).size >= 512 * 1024)
    .sort((a, b) => (a.source_file < b.source_file ? -1 : 1));
  for (const s of sessions) {
    const mb = statSync(s.source_file).size / 1048576;
    for (const ratio of RATIOS) {
      const times: number[] = [];
      let tokens = 0;
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        tokens = engine.brief({ sessionId: s.session_id, ratio, ladder: false }).tokens;
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      const best = times[0]!;
      const median = times[Math.floor(RUNS / 2)]!;
      if (mb > largest.mb || (mb === largest.mb && median > largest.ms)) largest = { mb, ms: median };
      console.log(
        `${s.source_file.replace(/^.*\//, "").slice(0, 44).padEnd(44)} ${mb.toFixed(1).padStart(5)} ${`${ratio * 100}%`.padStart(5)} ${String(tokens).padStart(7)} ${best.toFixed(0).padStart(5)} ms ${median.toFixed(0).padStart(4)} ms`,
      );
    }
  }
  console.log(
    `\ngoal ≤ 200 ms for a 2.4 MB session: largest (${largest.mb.toFixed(1)} MB) median ${largest.ms.toFixed(0)} ms`,
  );
} finally {
  store.close();
  rmSync(dir, { recursive: true, force: true });
}
