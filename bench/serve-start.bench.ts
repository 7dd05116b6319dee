/**
 * Issue 37: how long `cairn serve` takes to print its URL, timed from spawn to the `Open http…` line, for the pi
 * driver (the real `@earendil-works/pi-coding-agent` from node_modules, with a fake model in a temporary pi agent
 * dir: a `models.json` provider on a closed loopback port, chosen by pi's settings) beside the scripted driver,
 * which loads no SDK (the baseline). With `--provider/--model` the session opens before the URL (a wrong model is
 * reported in the terminal), so that case is timed too. Rounds interleave the cases, so other load falls on all of
 * them alike. Goal: the pi driver's URL ≤ 2 s.
 *
 *   npm run bench -- serve-start
 *   SERVE_ROUNDS=N   rounds (default 7)
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CLI = join(REPO, "dist/bundle/cairn.js");
const ROUNDS = Number(process.env["SERVE_ROUNDS"] ?? 7);

const dir = mkdtempSync(join(tmpdir(), "cairn-bench-serve-"));
const agentDir = join(dir, "pi-agent");
mkdirSync(agentDir, { recursive: true });
writeFileSync(
  join(agentDir, "models.json"),
  JSON.stringify({
    providers: {
      fake: {
        baseUrl: "http://127.0.0.1:9/v1",
        api: "openai-completions",
        apiKey: "dummy",
        models: [{ id: "fake-coder", contextWindow: 128000, maxTokens: 4096 }],
      },
    },
  }),
);
writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ defaultProvider: "fake", defaultModel: "fake-coder" }));
const env = { ...process.env, HOME: dir, PI_CODING_AGENT_DIR: agentDir, CAIRN_DB: join(dir, "none.db") };

const CASES: Record<string, string[]> = {
  "scripted (baseline)": ["--driver", "scripted", "--script", join(REPO, "examples/live-demo.json")],
  "pi, pi's settings choose the model": [],
  "pi --provider fake --model fake-coder": ["--provider", "fake", "--model", "fake-coder"],
};

/** Milliseconds from spawn to the URL line; the process is killed once it is out. */
function timeToUrl(args: string[]): Promise<number> {
  return new Promise((done, fail) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [CLI, "serve", "--cwd", dir, ...args], { env });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (/Open http/.test(out)) {
        const ms = performance.now() - t0;
        child.kill();
        done(ms);
      }
    });
    child.stderr.on("data", (d: Buffer) => {
      err += d.toString();
    });
    child.on("exit", (code) => {
      if (!/Open http/.test(out)) fail(new Error(`cairn serve ${args.join(" ")} exited ${code}: ${err.trim()}`));
    });
  });
}

try {
  const times = new Map<string, number[]>(Object.keys(CASES).map((k) => [k, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, args] of Object.entries(CASES)) times.get(name)!.push(await timeToUrl(args));
  }
  console.log(`cairn serve: spawn to URL, ${ROUNDS} rounds (load ${loadavg()[0]!.toFixed(1)})`);
  console.log(`${"case".padEnd(40)} ${"best".padStart(7)} ${"median".padStart(7)} ${"worst".padStart(7)}`);
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
  for (const [name, list] of times) {
    const sorted = [...list].sort((a, b) => a - b);
    console.log(
      `${name.padEnd(40)} ${`${sorted[0]!.toFixed(0)} ms`.padStart(7)} ${`${median(list).toFixed(0)} ms`.padStart(7)} ${`${sorted.at(-1)!.toFixed(0)} ms`.padStart(7)}`,
    );
  }
  console.log(
    `\ngoal ≤ 2000 ms for the pi driver: median ${median(times.get("pi, pi's settings choose the model")!).toFixed(0)} ms`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
