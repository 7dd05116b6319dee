/**
 * Issue 38: what cairn adds to pi's start. pi runs one prompt in print mode (`pi --print hi`, a fake model on
 * 127.0.0.1 answering at once) from spawn to exit, alone and with cairn installed as a pi package the way users
 * install it (`pi install <cairn's folder>` into the agent dir), for each supported pi. Rounds interleave the cases,
 * so other load falls on all of them alike. "cold" runs with a fresh temp dir, where pi's loader has not cached its
 * transpiled copy of the extension yet (the first start after installing or updating cairn). Every round's session
 * is the next one's earlier work, so a start with cairn waits for the brief of it (issue 39: print mode asks at
 * once); "no brief" runs with CAIRN_HOOKS=off. Goal: with cairn, ≤ 100 ms over pi alone.
 *
 *   npm run bench -- pi-start
 *   PI_START_ROUNDS=N   rounds (default 9)
 *   PI_BIN=/path/to/pi  time this pi (e.g. a global install) instead of the ones in node_modules
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const ROUNDS = Number(process.env["PI_START_ROUNDS"] ?? 9);
const PIS = process.env["PI_BIN"]
  ? [process.env["PI_BIN"]]
  : [
      join(REPO, "node_modules/@earendil-works/pi-coding-agent/dist/bundle/cli.js"),
      join(REPO, "node_modules/pi-coding-agent-087/dist/bundle/cli.js"),
    ];

/** An OpenAI-compatible endpoint that answers every chat request "ok" at once. */
const server = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    const chunk = (choice: object, usage?: object) =>
      res.write(
        `data: ${JSON.stringify({ id: "1", object: "chat.completion.chunk", created: 1, model: "fake", choices: [choice], ...(usage ? { usage } : {}) })}\n\n`,
      );
    chunk({ index: 0, delta: { role: "assistant", content: "ok" }, finish_reason: null });
    chunk({ index: 0, delta: {}, finish_reason: "stop" }, { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 });
    res.end("data: [DONE]\n\n");
  });
});
await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
const port = (server.address() as AddressInfo).port;

const dir = mkdtempSync(join(tmpdir(), "cairn-bench-pi-start-"));
const work = join(dir, "work");
mkdirSync(work);

/** An agent dir with the fake model, and with cairn installed into it when asked. */
async function agentDir(name: string, pi: string, withCairn: boolean): Promise<string> {
  const agent = join(dir, name);
  mkdirSync(agent, { recursive: true });
  const provider = { baseUrl: `http://127.0.0.1:${port}/v1`, api: "openai-completions", apiKey: "dummy" };
  const models = [{ id: "fake", contextWindow: 128000, maxTokens: 4096 }];
  writeFileSync(join(agent, "models.json"), JSON.stringify({ providers: { fake: { ...provider, models } } }));
  writeFileSync(join(agent, "settings.json"), JSON.stringify({ defaultProvider: "fake", defaultModel: "fake" }));
  if (withCairn) {
    const { code } = await run(pi, agent, ["install", REPO], dir);
    if (code !== 0) throw new Error(`pi install ${REPO} failed`);
  }
  return agent;
}

function run(
  pi: string,
  agent: string,
  args: string[],
  tmp: string,
  more: Record<string, string> = {},
): Promise<{ ms: number; code: number | null }> {
  return new Promise((done) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [pi, ...args], {
      cwd: work,
      stdio: "ignore",
      env: {
        PATH: process.env["PATH"] ?? "",
        HOME: dir,
        TMPDIR: tmp,
        PI_CODING_AGENT_DIR: agent,
        PI_OFFLINE: "1",
        PI_SKIP_VERSION_CHECK: "1",
        PI_TELEMETRY: "0",
        ...more,
      },
    });
    child.on("exit", (code) => done({ ms: performance.now() - t0, code }));
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const version = (pi: string) =>
  (JSON.parse(readFileSync(resolve(pi, "../../../package.json"), "utf8")) as { version: string }).version;

const warmTmp = join(dir, "tmp-warm");
mkdirSync(warmTmp);
for (const pi of PIS) {
  const alone = await agentDir(`alone-${version(pi)}`, pi, false);
  const cairn = await agentDir(`cairn-${version(pi)}`, pi, true);
  const times: Record<string, number[]> = {
    alone: [],
    "with cairn": [],
    "with cairn, no brief": [],
    "with cairn, cold": [],
  };
  await run(pi, cairn, ["--print", "hi"], warmTmp); // fills the loader's cache for the warm rounds
  for (let i = 0; i < ROUNDS; i++) {
    times["alone"]!.push((await run(pi, alone, ["--print", "hi"], warmTmp)).ms);
    times["with cairn"]!.push((await run(pi, cairn, ["--print", "hi"], warmTmp)).ms);
    const off = { CAIRN_HOOKS: "off" };
    times["with cairn, no brief"]!.push((await run(pi, cairn, ["--print", "hi"], warmTmp, off)).ms);
    const cold = mkdtempSync(join(dir, "tmp-cold-"));
    times["with cairn, cold"]!.push((await run(pi, cairn, ["--print", "hi"], cold)).ms);
  }
  const base = median(times["alone"]!);
  process.stdout.write(`pi ${version(pi)} (${pi}), ${ROUNDS} rounds, median ms:\n`);
  for (const [name, xs] of Object.entries(times)) {
    const m = median(xs);
    const over = name === "alone" ? "baseline" : `${m - base >= 0 ? "+" : ""}${Math.round(m - base)} ms over pi alone`;
    process.stdout.write(`  ${name.padEnd(22)} ${Math.round(m).toString().padStart(6)}  (${over})\n`);
  }
}
server.close();
rmSync(dir, { recursive: true, force: true });
