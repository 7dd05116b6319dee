/**
 * Issue 20: cold starts. Every figure is a new process of the command an installed `cairn` runs (the bundle,
 * dist/bundle/cairn.js; a checkout built before it existed runs dist/cli/main.js), timed from spawn to exit (or,
 * for `cairn mcp`, from spawn to the first search answer), beside an empty `node -e 0` start and a `JSON.parse`
 * of the largest real session from the same run. Without the million-event index the searches and `cairn mcp` run
 * on an index of the real fixtures; a no-change and a one-file-appended `cairn index` of those fixtures (a copy per
 * build, five lines appended to one file before each appended run) are timed too. Cases run interleaved, one of each per round, so load from other
 * processes falls on all of them alike. Goals: `--help` ≤ 1.5 × empty node; lexical search p95 ≤ 120 ms at 1 M
 * events; `cairn mcp` first search ≤ 150 ms; `resume` of the largest real session ≤ 200 ms.
 *
 *   npm run bench -- cold
 *   COLD_ROUNDS=N               rounds (default 12)
 *   COLD_BASELINE=/other/checkout  also time that checkout's dist/ in the same rounds (before/after figures)
 *   COLD_CLONE=1                also time a fresh clone of HEAD through its `bin/cairn.js` as the README sets it
 *                               up (bench/clone-checkout.ts): "clone" runs the bundle its first run built, "clone-src"
 *                               the same bin with CAIRN_FROM_SOURCE=1 (the TypeScript sources, as clones ran before
 *                               issue 41); goals for a clone in ratios to the empty start
 *   CAIRN_BENCH_DIR             where the million-event index of `npm run bench -- web-search` lives
 */
import { spawnSync } from "node:child_process";
import {
  appendFileSync,
  chmodSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { cloneCheckout } from "./clone-checkout.ts";
import { realFixturesDir } from "./corpus.ts";
import { HAS_TIMER, readUsage, underTimer } from "./rusage.ts";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const ROUNDS = Number(process.env["COLD_ROUNDS"] ?? 12);
const FIXTURES = realFixturesDir();
const BIG_INDEX = join(
  process.env["CAIRN_BENCH_DIR"] ?? join(tmpdir(), "cairn-bench"),
  "web-search",
  "index-1000000.db",
);
const QUERIES = [
  "error: TS2554",
  "theme selector",
  "process.env",
  "test:fail",
  "wrapAnsi",
  "terminal colors look wrong",
];

interface Build {
  name: string;
  cli: string;
  /** Variables this build's runs add (the clone's CAIRN_FROM_SOURCE). */
  env?: Record<string, string>;
  /** A clone's bin: its fixture searches and `cairn mcp` are timed even beside the million-event index. */
  clone?: boolean;
}

/** The command a checkout's build installs as: its bundle, or dist/cli/main.js from before the bundle. */
const builtCli = (checkout: string): string => {
  const bundle = join(checkout, "dist/bundle/cairn.js");
  return existsSync(bundle) ? bundle : join(checkout, "dist/cli/main.js");
};
const builds: Build[] = [{ name: "this", cli: builtCli(REPO) }];
const baseline = process.env["COLD_BASELINE"];
if (baseline) builds.push({ name: "baseline", cli: builtCli(resolve(baseline)) });
for (const b of builds)
  if (!existsSync(b.cli)) throw new Error(`${b.cli} is missing: run \`npm run build\` in ${dirname(dirname(b.cli))}`);
const work = mkdtempSync(join(tmpdir(), "cairn-cold-"));
if (process.env["COLD_CLONE"] === "1") {
  const clone = cloneCheckout(REPO, join(work, "clone"));
  console.log(
    `clone of ${clone.commit.slice(0, 12)}${clone.uncommitted ? " (this checkout has uncommitted edits: not in the clone)" : ""}; ` +
      `first run ${clone.firstRun.ms.toFixed(0)} ms: ${clone.firstRun.said}`,
  );
  builds.push({ name: "clone", cli: clone.bin, clone: true });
  builds.push({ name: "clone-src", cli: clone.bin, clone: true, env: { CAIRN_FROM_SOURCE: "1" } });
}

function largestSession(): string | null {
  if (!existsSync(FIXTURES)) return null;
  let best: { path: string; size: number } | null = null;
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".jsonl")) {
        const size = statSync(path).size;
        if (!best || size > best.size) best = { path, size };
      }
    }
  };
  walk(FIXTURES);
  return (best as { path: string } | null)?.path ?? null;
}

interface Timing {
  wall: number;
  /** User + system CPU of the process (all its threads), when /usr/bin/time can tell: steadier than wall time
   * on a shared machine, where wall time mostly measures waiting for a core. */
  cpu: number | null;
}

let timeFile = "";

/** Runs `node …args` under the timer (when there is one). */
const under = (args: string[]) => underTimer(timeFile, [process.execPath, ...args]);

const cpuOf = (): number | null => readUsage(timeFile)?.cpuMs ?? null;

/** Wall and CPU time of one process, in milliseconds; throws when it fails unexpectedly. */
function timed(args: string[], env: NodeJS.ProcessEnv = process.env, okCodes = [0]): Timing {
  const run = under(args);
  const start = performance.now();
  const r = spawnSync(run.command, run.args, { env, stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" });
  const wall = performance.now() - start;
  if (!okCodes.includes(r.status ?? -1)) throw new Error(`${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return { wall, cpu: cpuOf() };
}

/** Spawn → first `search_history` answer of `cairn mcp`, driven by the MCP SDK's own client over stdio. */
async function mcpFirstSearch(cli: string, db: string, extra: Record<string, string> = {}): Promise<Timing> {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StdioClientTransport, getDefaultEnvironment } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  const run = under([cli, "mcp", "--db", db]);
  const start = performance.now();
  const transport = new StdioClientTransport({ ...run, env: { ...getDefaultEnvironment(), ...extra } });
  const client = new Client({ name: "cairn-bench", version: "0" });
  await client.connect(transport);
  await client.callTool({ name: "search_history", arguments: { query: "error: TS2554", limit: 10 } });
  const wall = performance.now() - start;
  await client.close();
  // The CPU figure covers the whole server process, its shutdown after the answer included.
  await new Promise((r) => setTimeout(r, 50));
  for (let i = 0; i < 100 && HAS_TIMER && readUsage(timeFile) === null; i++)
    await new Promise((r) => setTimeout(r, 20));
  return { wall, cpu: cpuOf() };
}

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

const times = new Map<string, number[]>();
const cpuTimes = new Map<string, number[]>();
const record = (key: string, t: Timing): void => {
  times.set(key, [...(times.get(key) ?? []), t.wall]);
  if (t.cpu !== null) cpuTimes.set(key, [...(cpuTimes.get(key) ?? []), t.cpu]);
  if (HAS_TIMER) writeFileSync(timeFile, "");
};

const session = largestSession();
timeFile = join(work, "time.txt");
writeFileSync(timeFile, "");
let resumeArgs: { db: string; id: string } | null = null;
if (session) {
  // Indexed once, not timed: `resume` reads the index as a user's would after `cairn index`.
  const db = join(work, "resume.db");
  const idx = spawnSync(process.execPath, [builds[0]!.cli, "index", session, "--db", db, "--json"], {
    encoding: "utf8",
  });
  if (idx.status !== 0) throw new Error(`indexing ${session} failed: ${idx.stderr}`);
  const list = spawnSync(process.execPath, [builds[0]!.cli, "sessions", "--db", db, "--json"], { encoding: "utf8" });
  const parsed = JSON.parse(list.stdout) as { session_id: string }[] | { sessions: { session_id: string }[] };
  const rows = Array.isArray(parsed) ? parsed : parsed.sessions;
  resumeArgs = { db, id: rows[0]!.session_id };
}
const hasBig = existsSync(BIG_INDEX);
/**
 * Per build: a copy of the real fixtures indexed once (untimed), re-indexed as is and after an append. The session
 * with the most lines is copied short of its last 5 × ROUNDS lines, and each appended run adds its next five: new
 * events, so that run parses, stores and embeds them as a user's `cairn index` after a few turns would.
 */
const corpora = new Map<string, { root: string; db: string; grown: string; rest: string[] }>();
const longest = ((): { path: string; lines: string[] } | null => {
  let best: { path: string; lines: string[] } | null = null;
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".jsonl")) {
        const lines = readFileSync(path, "utf8")
          .split("\n")
          .filter((l) => l.length > 0);
        if (!best || lines.length > best.lines.length) best = { path, lines };
      }
    }
  };
  if (existsSync(FIXTURES)) walk(FIXTURES);
  return best;
})();
if (longest && longest.lines.length > 5 * ROUNDS)
  for (const b of builds) {
    const root = join(work, `fixtures-${b.name}`);
    cpSync(FIXTURES, root, { recursive: true });
    const grown = join(root, relative(FIXTURES, longest.path));
    chmodSync(grown, 0o644);
    const cut = longest.lines.length - 5 * ROUNDS;
    writeFileSync(grown, `${longest.lines.slice(0, cut).join("\n")}\n`);
    const db = join(work, `fixtures-${b.name}.db`);
    const idx = spawnSync(process.execPath, [b.cli, "index", root, "--db", db, "--json"], {
      encoding: "utf8",
      env: { ...process.env, ...b.env },
    });
    if (idx.status !== 0) throw new Error(`indexing ${root} failed: ${idx.stderr}`);
    corpora.set(b.name, { root, db, grown, rest: longest.lines.slice(cut) });
  }
const baseEnv = {
  ...process.env,
  HOME: work,
  XDG_DATA_HOME: join(work, "data"),
  XDG_CACHE_HOME: join(work, "cache"),
};
const parseOnly = session
  ? `for (const l of require("fs").readFileSync(${JSON.stringify(session)}, "utf8").split("\\n")) if (l) JSON.parse(l)`
  : null;

console.log(
  `${ROUNDS} rounds, ${cpus().length} cores (${cpus()[0]?.model ?? "?"}), load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")} at start; Node ${process.versions.node}`,
);
if (!hasBig) console.log(`(no million-event index at ${BIG_INDEX}: run \`npm run bench -- web-search\` to build it)`);
if (!session) console.log(`(no real fixtures at ${FIXTURES}: resume and JSON.parse skipped)`);

try {
  for (let round = 0; round < ROUNDS; round++) {
    record("node -e 0", timed(["-e", "0"]));
    if (parseOnly) record("node JSON.parse(largest session)", timed(["-e", parseOnly]));
    // Alternate which build goes first, so neither always runs right after the empty start.
    const order = round % 2 === 0 ? builds : [...builds].reverse();
    for (const b of order) {
      const env = { ...baseEnv, ...b.env };
      record(`${b.name}: --help`, timed([b.cli, "--help"], env));
      record(`${b.name}: --version`, timed([b.cli, "--version"], env));
      if (hasBig) {
        const q = QUERIES[round % QUERIES.length]!;
        record(
          `${b.name}: search lexical 1M`,
          timed([b.cli, "search", q, "--mode", "lexical", "--db", BIG_INDEX], env, [0, 1]),
        );
        record(`${b.name}: search hybrid 1M`, timed([b.cli, "search", q, "--db", BIG_INDEX], env, [0, 1]));
        record(`${b.name}: mcp first search 1M`, await mcpFirstSearch(b.cli, BIG_INDEX, b.env));
      }
      const corpus = corpora.get(b.name);
      if (corpus) {
        record(`${b.name}: index no change (fixtures)`, timed([b.cli, "index", corpus.root, "--db", corpus.db], env));
        appendFileSync(corpus.grown, `${corpus.rest.slice(5 * round, 5 * round + 5).join("\n")}\n`);
        record(
          `${b.name}: index one file appended (fixtures)`,
          timed([b.cli, "index", corpus.root, "--db", corpus.db], env),
        );
        if (!hasBig || b.clone) {
          const q = QUERIES[round % QUERIES.length]!;
          record(
            `${b.name}: search lexical (fixtures)`,
            timed([b.cli, "search", q, "--mode", "lexical", "--db", corpus.db], env, [0, 1]),
          );
          record(`${b.name}: mcp first search (fixtures)`, await mcpFirstSearch(b.cli, corpus.db, b.env));
        }
      }
      if (resumeArgs) {
        record(
          `${b.name}: search hybrid (fixture, vectors)`,
          timed([b.cli, "search", "failing test", "--db", resumeArgs.db], env, [0, 1]),
        );
        record(
          `${b.name}: resume largest session`,
          timed([b.cli, "resume", resumeArgs.id, "--db", resumeArgs.db], env),
        );
      }
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const GOALS: Record<string, string> = {
  "--help": "≤ 1.5 × empty node",
  "index no change (fixtures)": "≤ 2 × empty node",
  "index one file appended (fixtures)": "≤ 3 × empty node",
  "mcp first search (fixtures)": "≤ 150 ms",
  "search lexical 1M": "p95 ≤ 120 ms",
  "mcp first search 1M": "p95 ≤ 150 ms",
  "resume largest session": "≤ 200 ms",
};
/** Issue 41: a clone, through its bin, in ratios to the empty start of the same rounds. */
const CLONE_GOALS: Record<string, string> = {
  "--help": "≤ 1.5 × empty node",
  "search lexical (fixtures)": "≤ 4 × empty node",
  "resume largest session": "≤ 8 × empty node",
  "mcp first search (fixtures)": "≤ 6 × empty node",
};
const goalOf = (key: string): string =>
  Object.entries(/^clone(-src)?: /.test(key) ? CLONE_GOALS : GOALS).find(([k]) => key.endsWith(k))?.[1] ?? "";
const ms = (x: number): string => `${x.toFixed(1).padStart(6)}ms`;
function table(title: string, figures: Map<string, number[]>): void {
  const empty = figures.get("node -e 0");
  if (!empty) return;
  const base = pct(empty, 50);
  console.log(
    `\n${title}\n${"case".padEnd(44)} ${"p50".padStart(8)} ${"p95".padStart(8)} ${"p50/node".padStart(9)}  goal`,
  );
  for (const [key, list] of figures) {
    const goal = goalOf(key);
    const ratio = `${(pct(list, 50) / base).toFixed(2)}×`.padStart(9);
    console.log(`${key.padEnd(44)} ${ms(pct(list, 50))} ${ms(pct(list, 95))} ${ratio}  ${goal}`);
  }
  for (const key of figures.keys()) {
    const installed = /^clone(-src)?: /.test(key) ? figures.get(key.replace(/^clone(-src)?: /, "this: ")) : undefined;
    if (installed)
      console.log(
        `${key.padEnd(44)} /this (installed bundle) p50 ${(pct(figures.get(key)!, 50) / pct(installed, 50)).toFixed(2)}`,
      );
  }
  if (!baseline) return;
  for (const key of figures.keys()) {
    const other = key.startsWith("this: ") ? figures.get(key.replace("this: ", "baseline: ")) : undefined;
    if (other)
      console.log(
        `${key.slice(6).padEnd(38)} this/baseline p50 ${(pct(figures.get(key)!, 50) / pct(other, 50)).toFixed(2)}`,
      );
  }
}
table("wall time, spawn to exit (mcp: spawn to the first search answer)", times);
table("CPU time (user + system, every thread of the process)", cpuTimes);
console.log(
  `load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")} at end (other processes share these cores: compare ratios, and CPU time before wall time)`,
);
