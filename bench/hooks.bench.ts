/**
 * Issue 39: what cairn's session-start hook adds to an agent's start. Claude Code (the newest version in the
 * clients' cache, else installed from npm) runs one prompt (`claude -p`, a fake Anthropic API on 127.0.0.1) in a
 * project with an earlier session, with and without `cairn hooks install claude`, rounds interleaved; then the hook
 * alone (`cairn hooks run claude`, as Claude runs it), p50 and p95. Goal: p95 ≤ 150 ms added to the agent's start.
 *
 *   npm run bench -- hooks
 *   HOOK_ROUNDS=N   rounds (default 15)
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { agentCli, claudeEnv } from "../test/helpers/agent-cli.ts";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
// What an installed cairn runs (and what the installed hook names).
const CLI = join(REPO, "dist/bundle/cairn.js");
const ROUNDS = Number(process.env["HOOK_ROUNDS"] ?? 15);

const server = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    if (req.url?.startsWith("/v1/messages/count_tokens")) return void res.end('{"input_tokens":100}');
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

function timed(cmd: string, args: string[], home: string, input?: string): Promise<number> {
  return new Promise((done, fail) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, {
      cwd: work,
      env: env(home),
      stdio: [input ? "pipe" : "ignore", "ignore", "ignore"],
    });
    if (input) child.stdin?.end(input);
    child.on("close", (code) => (code === 0 ? done(performance.now() - t0) : fail(new Error(`${cmd} exited ${code}`))));
  });
}

const ask = (home: string) => timed(claude, ["-p", "go on", "--dangerously-skip-permissions"], home);
for (const home of Object.values(homes)) {
  mkdirSync(home);
  await ask(home); // an earlier session in this folder
}
await timed(process.execPath, [CLI, "hooks", "install", "claude"], homes.hooked);

const times: Record<string, number[]> = {
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
  times["claude -p, no hook"]!.push(await ask(homes.plain));
  times["claude -p, cairn's hook"]!.push(await ask(homes.hooked));
  times["the hook alone"]!.push(await timed(process.execPath, [CLI, "hooks", "run", "claude"], homes.hooked, stdin));
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? 0;
const base = times["claude -p, no hook"]!;
process.stdout.write(`Claude Code (${claude}), ${ROUNDS} rounds; an earlier session: ${transcript}\n`);
for (const [name, xs] of Object.entries(times)) {
  const over = name.startsWith("claude -p, cairn")
    ? `  (+${Math.round(pct(xs, 0.5) - pct(base, 0.5))} ms p50, +${Math.round(pct(xs, 0.95) - pct(base, 0.95))} ms p95 over no hook)`
    : "";
  process.stdout.write(
    `  ${name.padEnd(24)} p50 ${Math.round(pct(xs, 0.5))} ms  p95 ${Math.round(pct(xs, 0.95))} ms${over}\n`,
  );
}
server.close();
rmSync(root, { recursive: true, force: true });
