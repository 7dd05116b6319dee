/**
 * Issue 40: `cairn usage` beside ccusage (the npm registry's newest release that runs here) on the same Claude Code
 * and Codex files: the fixtures' shapes cut into a corpus of USAGE_FILES transcripts (bench/usage-corpus.ts). For
 * each report (Claude by day, by session; Codex by day, by session) it prints both tools' wall time, median of
 * USAGE_ROUNDS runs, and whether the totals agree. Both run as a user runs them, on the agents' folders in HOME:
 * `cairn usage` brings its index up to date first (one stat per unchanged file of the agents asked about) and then
 * reports; its first run, which reads every file into the index, and `--no-index` are printed too. A second table
 * times the Codex reports while an agent works: before each run of either tool one new call is appended to a
 * rollout, so cairn reads it into its index and rolls that agent's calls up again (what it kept is stale).
 *
 *   npm run bench -- usage
 *   USAGE_FILES=N  transcripts (default 300)   USAGE_ROUNDS=N  runs per figure (default 5)
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ccusageBin } from "../test/helpers/ccusage.ts";
import { writeUsageCorpus } from "./usage-corpus.ts";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CLI = join(REPO, "dist/bundle/cairn.js");
const FILES = Number(process.env["USAGE_FILES"] ?? 300);
const ROUNDS = Number(process.env["USAGE_ROUNDS"] ?? 5);

const root = mkdtempSync(join(tmpdir(), "cairn-bench-usage-"));
const home = join(root, "home");
const corpus = writeUsageCorpus(home, FILES);
const ccusage = ccusageBin();
const env: Record<string, string> = {
  PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
  HOME: home,
  TZ: "UTC",
  CODEX_HOME: join(home, ".codex"),
  XDG_DATA_HOME: join(root, "data"),
};
const db = join(root, "cairn.db");

function timed(argv: string[]): { ms: number; out: string } {
  const t = performance.now();
  const out = execFileSync(argv[0]!, argv.slice(1), { env, maxBuffer: 1 << 30 }).toString();
  return { ms: performance.now() - t, out };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const cairn = (args: string[], index = true) => [
  process.execPath,
  CLI,
  "usage",
  ...args,
  "--json",
  "--timezone",
  "UTC",
  "--limit",
  "100000",
  "--db",
  db,
  ...(index ? [] : ["--no-index"]),
];
const theirs = (args: string[]) => [ccusage.bin, ...args, "--json", "--offline", "-z", "UTC"];

console.log(
  `corpus: ${corpus.files} transcripts (Claude Code and Codex), ${(corpus.bytes / 1e6).toFixed(1)} MB; ccusage ${ccusage.version}; ${ROUNDS} rounds`,
);
const first = timed(cairn(["--by", "day"]));
console.log(`cairn usage, first run (reads every file into its index): ${(first.ms / 1000).toFixed(2)} s`);

const reports: Array<{ name: string; ours: string[]; them: string[]; total: (j: never) => number }> = [
  {
    name: "Claude by day",
    ours: ["--by", "day", "--provider", "claude"],
    them: ["claude", "daily"],
    total: (j: { totals: { totalTokens: number } }) => j.totals.totalTokens,
  },
  {
    name: "Claude by session",
    ours: ["--by", "session", "--provider", "claude"],
    them: ["claude", "session"],
    total: (j: { totals: { totalTokens: number } }) => j.totals.totalTokens,
  },
  {
    name: "Codex by day",
    ours: ["--by", "day", "--provider", "codex"],
    them: ["codex", "daily"],
    total: (j: { totals: { totalTokens: number } }) => j.totals.totalTokens,
  },
  {
    name: "Codex by session",
    ours: ["--by", "session", "--provider", "codex"],
    them: ["codex", "session"],
    total: (j: { totals: { totalTokens: number } }) => j.totals.totalTokens,
  },
] as never;
console.log(
  `\n${"report".padEnd(20)} ${"ccusage".padStart(9)} ${"cairn".padStart(9)} ${"--no-index".padStart(11)}  totals`,
);
for (const r of reports) {
  const a: number[] = [];
  const b: number[] = [];
  const c: number[] = [];
  let them = "";
  let ours = "";
  for (let i = 0; i < ROUNDS; i++) {
    const x = timed(theirs(r.them));
    a.push(x.ms);
    them = x.out;
    const y = timed(cairn(r.ours));
    b.push(y.ms);
    ours = y.out;
    c.push(timed(cairn(r.ours, false)).ms);
  }
  const t1 = r.total(JSON.parse(them) as never);
  const t2 = (JSON.parse(ours) as { totals: { total: number } }).totals.total;
  const agree = t1 === t2 ? "equal" : `ccusage ${t1.toLocaleString("en-US")} vs cairn ${t2.toLocaleString("en-US")}`;
  console.log(
    `${r.name.padEnd(20)} ${`${median(a).toFixed(0)} ms`.padStart(9)} ${`${median(b).toFixed(0)} ms`.padStart(9)} ${`${median(c).toFixed(0)} ms`.padStart(11)}  ${agree}`,
  );
}
console.log("\n(Codex by session: ccusage counts a fork's copies of its parent's calls in both sessions; cairn once.)");

// One rollout an agent is still writing: each appended record is a new call (its running total moves).
const rollout = readdirSync(join(home, ".codex"), { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith(".jsonl"))
  .map((f) => join(home, ".codex", f))
  .sort()[0]!;
const last = JSON.parse(
  readFileSync(rollout, "utf8")
    .trimEnd()
    .split("\n")
    .filter((l) => l.includes('"token_count"'))
    .at(-1)!,
) as { timestamp: string; payload: { info: { total_token_usage: Record<string, number> } } };
let appended = 0;
function appendCall(): void {
  appended++;
  const info = last.payload.info;
  const total = Object.fromEntries(Object.entries(info.total_token_usage).map(([k, v]) => [k, v + appended * 1_000]));
  const at = new Date(Date.parse(last.timestamp) + appended * 1_000).toISOString();
  const record = { ...last, timestamp: at, payload: { ...last.payload, info: { ...info, total_token_usage: total } } };
  appendFileSync(rollout, `${JSON.stringify(record)}\n`);
}
console.log(
  `\nwhile an agent works (one call appended to a rollout before each run)\n${"report".padEnd(20)} ${"ccusage".padStart(9)} ${"cairn".padStart(9)}`,
);
for (const r of reports.slice(2)) {
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    appendCall();
    a.push(timed(theirs(r.them)).ms);
    appendCall();
    b.push(timed(cairn(r.ours)).ms);
  }
  console.log(
    `${r.name.padEnd(20)} ${`${median(a).toFixed(0)} ms`.padStart(9)} ${`${median(b).toFixed(0)} ms`.padStart(9)}`,
  );
}
rmSync(root, { recursive: true, force: true });
