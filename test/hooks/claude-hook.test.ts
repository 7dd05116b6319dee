/**
 * `cairn hooks` with the real Claude Code CLI against a fake Anthropic API on 127.0.0.1: after `install`, the first
 * request of a new session in a folder with history carries a cited brief of the session before (its citations open
 * with `cairn show`); after `remove`, nothing, and the settings file is byte for byte what it was; with the index
 * broken or the folder turned off, Claude still starts and answers, and `hooks status` says why there was no brief.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentCli, claudeEnv } from "../helpers/agent-cli.ts";
import { cairn } from "../helpers/cli.ts";
import { breakIndex, expectCitationsOpen, homeEnv, type LocalServer, runAgent, serveLocal } from "./hook-world.ts";

let server: LocalServer;
let url = "";
/** The text of every request's messages, in order (system prompt and messages, flattened). */
const requests: string[] = [];
let root = "";
let claude = "";

beforeAll(async () => {
  claude = agentCli("claude", "@anthropic-ai/claude-code", "claude");
  server = await serveLocal((req, res, body) => {
    if (req.url?.startsWith("/v1/messages/count_tokens")) return void res.end('{"input_tokens":100}');
    if (!req.url?.startsWith("/v1/messages")) return void res.writeHead(404).end();
    requests.push(body);
    const model = (JSON.parse(body) as { model?: string }).model ?? "fake";
    const usage = { input_tokens: 10, output_tokens: 2, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    const content = [{ type: "text", text: "Done." }];
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        id: "msg_1",
        type: "message",
        role: "assistant",
        model,
        content,
        stop_reason: "end_turn",
        usage,
      }),
    );
  });
  url = server.url;
  root = mkdtempSync(join(tmpdir(), "cairn-hooks-"));
  for (const dir of ["home", "work", "data", "state"]) mkdirSync(join(root, dir));
}, 600_000);

afterAll(() => {
  server?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

const env = () => homeEnv(root);

/** One `claude -p` turn in the project (run without blocking: the fake API answers from this process). */
async function ask(prompt: string, more: Record<string, string> = {}): Promise<{ answer: string; sent: string }> {
  const before = requests.length;
  const { stdout: answer } = await runAgent(claude, ["-p", prompt, "--dangerously-skip-permissions"], {
    cwd: join(root, "work"),
    timeout: 120_000,
    env: {
      PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
      ...env(),
      ...claudeEnv(url),
      ...more,
    },
  });
  return { answer, sent: requests.slice(before).join("\n") };
}

/** A process holding an exclusive lock on the index's database until killed (resolves once it holds it). */
function lockDatabase(db: string): Promise<ReturnType<typeof spawn>> {
  const script = `const D = require(${JSON.stringify(createRequire(import.meta.url).resolve("better-sqlite3"))});
const db = new D(${JSON.stringify(db)});
db.pragma("locking_mode = EXCLUSIVE");
db.exec("BEGIN EXCLUSIVE");
db.exec("CREATE TABLE IF NOT EXISTS held_by_test(x)");
process.stdout.write("locked\\n");
setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((done, fail) => {
    child.stdout?.once("data", () => done(child));
    child.once("exit", (code) => fail(new Error(`the lock holder exited (${code})`)));
  });
}

/** Whether the index finds `words` within 30 s (the end hook's indexing runs in a process of its own). */
async function indexed(words: string): Promise<boolean> {
  for (let i = 0; i < 60; i++) {
    const found = cairn(["search", words, "--json"], { env: env() });
    if (found.code === 0 && found.stdout.includes(words)) return true;
    await new Promise((done) => setTimeout(done, 500));
  }
  return false;
}

/** A GitHub token's shape (not a real one): the brief must carry a marker in its place. */
const TOKEN = `ghp_${"a1B2c3D4e5".repeat(3)}x9Y8z7`;

const settingsPath = () => join(root, "home", ".claude", "settings.json");
// The user's own settings, in their own layout: cairn must keep them and give them back byte for byte.
const USER_SETTINGS =
  '{\n    "env": { "FOO": "bar" },\n    "hooks": {\n        "SessionStart": [\n            { "matcher": "resume", "hooks": [ { "type": "command", "command": "true" } ] }\n        ]\n    }\n}\n';

describe("cairn hooks with the real Claude Code CLI", () => {
  it("briefs a new session from the one before, and stops once removed", { timeout: 600_000 }, async () => {
    expect((await ask(`TASK-ALPHA: fix the tokenizer in src/tokenize.ts, token ${TOKEN}`)).answer).toContain("Done.");
    mkdirSync(dirname(settingsPath()), { recursive: true });
    writeFileSync(settingsPath(), USER_SETTINGS);

    expect(cairn(["hooks", "install", "claude"], { env: env() }).stdout).toContain("claude: installed");
    expect(cairn(["hooks", "install", "claude"], { env: env() }).stdout).toContain("claude: already installed");
    const installed = JSON.parse(readFileSync(settingsPath(), "utf8"));
    expect(installed.env).toEqual({ FOO: "bar" });
    expect(installed.hooks.SessionStart).toHaveLength(2);

    const { sent } = await ask("TASK-BETA: carry on");
    expect(sent).toContain("From cairn, before this session began");
    expect(sent).toContain("TASK-ALPHA: fix the tokenizer in src/tokenize.ts");
    // The secret the user pasted reaches the model only as a marker.
    expect(sent).not.toContain(TOKEN);
    expect(sent).toMatch(/\[secret:github-token:[0-9a-f]+\]/);
    expectCitationsOpen(sent, env());
    // The session just ended is indexed by then (SessionEnd), before any other session starts.
    expect(await indexed("TASK-BETA")).toBe(true);
    const status = cairn(["hooks", "status"], { env: env() }).stdout;
    expect(status).toMatch(/Claude Code \(claude\): installed/);
    expect(status).toMatch(/sessions indexed as they ended: 1/);
    expect(status).toMatch(/ran 1 times, 1 with a brief/);

    expect(cairn(["hooks", "remove", "claude"], { env: env() }).stdout).toContain("claude: restored");
    expect(readFileSync(settingsPath(), "utf8")).toBe(USER_SETTINGS);
    expect((await ask("TASK-GAMMA: and then")).sent).not.toContain("From cairn");
  });

  it("never stands in the way: a broken or locked index, CAIRN_HOOKS=off, opt-in and opt-out folders", {
    timeout: 600_000,
  }, async () => {
    cairn(["hooks", "install", "claude"], { env: env() });
    const db = breakIndex(join(root, "data"));
    const broken = await ask("TASK-DELTA: still there?");
    expect(broken.answer).toContain("Done.");
    expect(broken.sent).not.toContain("From cairn");
    expect(cairn(["hooks", "status"], { env: env() }).stdout).toMatch(/last error: .*/);

    rmSync(db, { force: true });
    expect((await ask("TASK-EPSILON: the index is rebuilt")).sent).toContain("From cairn");

    // Another process holds the database locked: the hook gives up at once, and says why.
    const locker = await lockDatabase(db);
    try {
      const locked = await ask("TASK-LOCKED: still here?");
      expect(locked.answer).toContain("Done.");
      expect(locked.sent).not.toContain("From cairn");
      const status = cairn(["hooks", "status"], { env: env() }).stdout;
      expect(status).toMatch(/last error: .*database is locked/);
      expect(Number(status.match(/last: .* · error · (\d+) ms/)?.[1])).toBeLessThan(5_000);
    } finally {
      locker.kill();
    }

    expect((await ask("TASK-ZETA: not this one", { CAIRN_HOOKS: "off" })).sent).not.toContain("From cairn");

    // Opt-in mode: no brief until the folder is turned on.
    cairn(["hooks", "install", "claude", "--opt-in"], { env: env() });
    cairn(["hooks", "on", join(root, "elsewhere")], { env: env() });
    expect((await ask("TASK-ETA: not opted in")).sent).not.toContain("From cairn");
    expect(cairn(["hooks", "status"], { env: env() }).stdout).toContain("skipped: not opted in");
    cairn(["hooks", "on", join(root, "work")], { env: env() });
    expect((await ask("TASK-THETA: opted in")).sent).toContain("From cairn");
    expect(cairn(["hooks", "status"], { env: env() }).stdout).toContain("briefs only where turned on");

    // Back to briefs everywhere, then this folder turned off.
    cairn(["hooks", "install", "claude", "--everywhere"], { env: env() });
    cairn(["hooks", "off", join(root, "work")], { env: env() });
    expect((await ask("TASK-IOTA: nor this one")).sent).not.toContain("From cairn");
    expect(cairn(["hooks", "status"], { env: env() }).stdout).toContain("skipped: opted out");
    cairn(["hooks", "remove", "--all"], { env: env() });
  });
});
