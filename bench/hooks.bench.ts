/**
 * Issue 39: what cairn's session-start hook adds to an agent's start. Claude Code (the newest version in the
 * clients' cache, else installed from npm) runs one prompt (`claude -p`, a fake Anthropic API on 127.0.0.1) in a
 * project with an earlier session, with and without `cairn hooks install claude`, rounds interleaved: its start (from
 * the spawn to its first request to the model, which carries the brief) and its whole run (which includes the
 * SessionEnd hook starting the session's indexing in the background); then the hook alone (`cairn hooks run
 * claude`, as Claude runs it), p50 and p95; then the hook alone after a long real session, indexed and just
 * written. Goal: p95 ≤ 150 ms added to the agent's start.
 *
 *   npm run bench -- hooks
 *   HOOK_ROUNDS=N   rounds (default 15)
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { agentCli, claudeEnv } from "../test/helpers/agent-cli.ts";
import { realFixturesDir } from "../test/helpers/transcripts.ts";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
// What an installed cairn runs (and what the installed hook names).
const CLI = join(REPO, "dist/bundle/cairn.js");
const ROUNDS = Number(process.env["HOOK_ROUNDS"] ?? 15);

/** When the model was first asked something in the current run: the end of the agent's start. */
let firstAsked: number | null = null;
const server = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    if (req.url?.startsWith("/v1/messages/count_tokens")) return void res.end('{"input_tokens":100}');
    firstAsked ??= performance.now();
    const usage = { input_tokens: 10, output_tokens: 2, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    const msg = { id: "m", type: "message", role: "assistant", model: "fake", content: [{ type: "text", text: "ok" }] };
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ ...msg, stop_reason: "end_turn", usage }));
  });
});
await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const root = mkdtempSync(join(tmpdir(), "cairn-bench-hooks-"));
const homes = { plain: join(root, "plain"), hooked: join(root, "hooked") };
const work = join(root, "work");
mkdirSync(work);
const claude = agentCli("claude", "@anthropic-ai/claude-code", "claude");

function env(home: string): Record<string, string> {
  return {
    PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
    HOME: home,
    XDG_DATA_HOME: join(home, "data"),
    XDG_STATE_HOME: join(home, "state"),
    ...claudeEnv(url),
  };
}

/** The run's wall time; `start` gets the time to its first model request. */
function timed(cmd: string, args: string[], home: string, input?: string, start?: number[]): Promise<number> {
  return new Promise((done, fail) => {
    const t0 = performance.now();
    firstAsked = null;
    const child = spawn(cmd, args, {
      cwd: work,
      env: env(home),
      stdio: [input ? "pipe" : "ignore", "ignore", "ignore"],
    });
    if (input) child.stdin?.end(input);
    child.on("close", (code) => {
      if (code !== 0) return fail(new Error(`${cmd} exited ${code}`));
      if (start && firstAsked !== null) start.push(firstAsked - t0);
      done(performance.now() - t0);
    });
  });
}

/** Waits for the indexing a session's end started in the background, so that it runs beside no measured run. */
async function backgroundIndexDone(): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (spawnSync("pgrep", ["-f", `${CLI} index`]).status !== 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const ask = (home: string, start?: number[]) =>
  timed(claude, ["-p", "go on", "--dangerously-skip-permissions"], home, undefined, start);
for (const home of Object.values(homes)) {
  mkdirSync(home);
  await ask(home); // an earlier session in this folder
}
await timed(process.execPath, [CLI, "hooks", "install", "claude"], homes.hooked);

const times: Record<string, number[]> = {
  "claude -p start (to its first request), no hook": [],
  "claude -p start (to its first request), cairn's hook": [],
  "claude -p, no hook": [],
  "claude -p, cairn's hook": [],
  "the hook alone": [],
};
const projects = join(homes.hooked, ".claude", "projects");
const project = join(projects, readdirSync(projects)[0] ?? "");
const transcript = join(project, readdirSync(project).find((f) => f.endsWith(".jsonl")) ?? "");
const stdin = JSON.stringify({
  session_id: "bench",
  transcript_path: join(project, "bench.jsonl"),
  cwd: work,
  source: "startup",
});
for (let i = 0; i < ROUNDS; i++) {
  times["claude -p, no hook"]!.push(await ask(homes.plain, times["claude -p start (to its first request), no hook"]));
  times["claude -p, cairn's hook"]!.push(
    await ask(homes.hooked, times["claude -p start (to its first request), cairn's hook"]),
  );
  await backgroundIndexDone();
  times["the hook alone"]!.push(await timed(process.execPath, [CLI, "hooks", "run", "claude"], homes.hooked, stdin));
}

/**
 * The hook after a long session: a real Claude Code transcript from a public repository (2.6 MB, 222 records), its
 * folder made this project's, is the latest earlier work here. Once indexed (a later start, or a watcher's index),
 * and just written (the index has every earlier one but not this: the hook indexes it first, as at the first start
 * after a long session nobody indexed).
 */
const LONG = "claude/codemie__session-624a4a58.jsonl";
const long = join(root, "long");
const longProject = join(long, ".claude", "projects", readdirSync(projects)[0] ?? "");
mkdirSync(longProject, { recursive: true });
const real = readFileSync(join(realFixturesDir(), LONG), "utf8");
const first = JSON.parse(real.split("\n")[1] ?? "{}") as { cwd?: string; sessionId?: string };
const here = real.replaceAll(JSON.stringify(first.cwd), JSON.stringify(work));
/** The long session as session `n` of this folder (its own id and file), written now. */
const writeLong = (n: number) => {
  const id = `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
  writeFileSync(join(longProject, `${id}.jsonl`), here.replaceAll(first.sessionId ?? "", id));
};
const longStdin = stdin.replace(join(project, "bench.jsonl"), join(longProject, "bench.jsonl"));
times["the hook alone, after a long session, indexed"] = [];
times["the hook alone, after a long session, just written"] = [];
const hookLong = () => timed(process.execPath, [CLI, "hooks", "run", "claude"], long, longStdin);
writeLong(0);
await hookLong();
for (let i = 1; i <= ROUNDS; i++) {
  times["the hook alone, after a long session, indexed"]!.push(await hookLong());
  writeLong(i);
  times["the hook alone, after a long session, just written"]!.push(await hookLong());
}
const runs = JSON.parse(readFileSync(join(long, "state", "cairn", "hooks.json"), "utf8")).runs.claude;
if (runs.briefs !== runs.count) throw new Error(`the long session's hook gave no brief: ${JSON.stringify(runs.last)}`);

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? 0;
const base = (name: string) => times[name.replace("cairn's hook", "no hook")]!;
process.stdout.write(`Claude Code (${claude}), ${ROUNDS} rounds; an earlier session: ${transcript}\n`);
for (const [name, xs] of Object.entries(times)) {
  const over = name.endsWith("cairn's hook")
    ? `  (+${Math.round(pct(xs, 0.5) - pct(base(name), 0.5))} ms p50, +${Math.round(pct(xs, 0.95) - pct(base(name), 0.95))} ms p95 over no hook)`
    : "";
  process.stdout.write(
    `  ${name.padEnd(52)} p50 ${Math.round(pct(xs, 0.5))} ms  p95 ${Math.round(pct(xs, 0.95))} ms${over}\n`,
  );
}
server.close();
rmSync(root, { recursive: true, force: true });
