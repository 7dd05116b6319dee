/**
 * `cairn hooks` with the real Qwen Code CLI against a fake OpenAI-compatible API on 127.0.0.1: after `install`, the
 * first request of a new session in a folder with history carries a cited brief of the session before (Qwen Code
 * adds a SessionStart hook's context to the system instruction); a continued session gets none; after `remove`,
 * nothing, and the settings file is byte for byte what it was; with the index broken or the session turned off,
 * Qwen Code still starts and answers, and `hooks status` says why there was no brief.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chat } from "../../scripts/clients/fake/chat.ts";
import type { Conversation } from "../../scripts/clients/fake/types.ts";
import { agentCli } from "../helpers/agent-cli.ts";
import { cairn } from "../helpers/cli.ts";
import { breakIndex, expectCitationsOpen, homeEnv, type LocalServer, runAgent, serveLocal } from "./hook-world.ts";

const MODEL = "qwen3-coder-plus";
let server: LocalServer;
let url = "";
/** Every chat request the CLI sent, in order. */
const requests: Conversation[] = [];
let root = "";
let qwen = "";

beforeAll(async () => {
  qwen = agentCli("qwen", "@qwen-code/qwen-code", "qwen");
  server = await serveLocal((req, res, body) => {
    const path = req.url ?? "";
    if (req.method === "GET" && path.startsWith("/v1/models")) {
      res.writeHead(200, { "content-type": "application/json" });
      return void res.end(JSON.stringify({ object: "list", data: [{ id: MODEL }] }));
    }
    if (!chat.matches(req.method ?? "", path)) return void res.writeHead(404).end("{}");
    const conv = chat.parse(JSON.parse(body), path);
    requests.push(conv);
    chat.respond(res, { text: "Done." }, conv, path);
  });
  url = server.url;
  root = mkdtempSync(join(tmpdir(), "cairn-hooks-qwen-"));
  for (const dir of ["home", "work", "data", "state", "tmp"]) mkdirSync(join(root, dir));
}, 600_000);

afterAll(() => {
  server?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

const env = () => homeEnv(root);

/** One `qwen -p` turn in the project (run without blocking: the fake API answers from this process). */
async function ask(
  prompt: string,
  more: { env?: Record<string, string>; args?: string[] } = {},
): Promise<{ answer: string; sent: string; system: string; last: string }> {
  const before = requests.length;
  const { stdout: answer, stderr } = await runAgent(qwen, ["-p", prompt, "--yolo", ...(more.args ?? [])], {
    cwd: join(root, "work"),
    timeout: 120_000,
    env: {
      PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
      ...env(),
      TMPDIR: join(root, "tmp"),
      OPENAI_API_KEY: "dummy",
      OPENAI_BASE_URL: `${url}/v1`,
      OPENAI_MODEL: MODEL,
      QWEN_CODE_TRUST_WORKSPACE: "true",
      ...more.env,
    },
  });
  expect(stderr).not.toMatch(/From cairn|hooks run qwen/);
  // The session's own turn: the request that carries this prompt last.
  const sent = requests.slice(before);
  const turn = sent.find((c) =>
    c.msgs
      .filter((m) => m.role === "user")
      .at(-1)
      ?.text.includes(prompt),
  );
  expect(turn, `no request carried ${prompt}`).toBeDefined();
  return {
    answer,
    sent: sent.map((c) => [c.system, ...c.msgs.map((m) => m.text)].join("\n")).join("\n"),
    system: turn?.system ?? "",
    last: turn?.msgs.filter((m) => m.role === "user").at(-1)?.text ?? "",
  };
}

const settingsPath = () => join(root, "home", ".qwen", "settings.json");
// The user's own settings, in their own layout: cairn must keep them and give them back byte for byte. (Qwen Code
// adds its settings' `$version` to a file without one when it starts; a user's file that Qwen Code has read has it.)
const USER_SETTINGS =
  '{\n    "$version": 4,\n    "ui": { "hideTips": true },\n    "hooks": {\n        "SessionStart": [\n            { "matcher": "resume", "hooks": [ { "type": "command", "command": "true" } ] }\n        ]\n    }\n}\n';

describe("cairn hooks with the real Qwen Code CLI", () => {
  it("briefs a new session from the one before, not a continued one, and stops once removed", {
    timeout: 600_000,
  }, async () => {
    mkdirSync(dirname(settingsPath()), { recursive: true });
    writeFileSync(settingsPath(), USER_SETTINGS);
    expect((await ask("TASK-ALPHA: fix the tokenizer in src/tokenize.ts")).answer).toContain("Done.");
    expect(readFileSync(settingsPath(), "utf8")).toBe(USER_SETTINGS);

    expect(cairn(["hooks", "install", "qwen"], { env: env() }).stdout).toContain("qwen: installed");
    expect(cairn(["hooks", "install", "qwen"], { env: env() }).stdout).toContain("qwen: already installed");
    const installed = JSON.parse(readFileSync(settingsPath(), "utf8"));
    expect(installed.ui).toEqual({ hideTips: true });
    expect(installed.hooks.SessionStart.map((g: { matcher?: string }) => g.matcher)).toEqual([
      "resume",
      "startup|clear",
    ]);

    const beta = await ask("TASK-BETA: carry on");
    expect(beta.system).toContain("From cairn, before this session began");
    expect(beta.system).toContain("TASK-ALPHA: fix the tokenizer in src/tokenize.ts");
    expect(beta.last).not.toContain("From cairn");
    expectCitationsOpen(beta.system, env());
    const status = cairn(["hooks", "status"], { env: env() }).stdout;
    expect(status).toMatch(/Qwen Code \(qwen\): installed/);
    expect(status).toMatch(/ran 1 times, 1 with a brief/);

    // A continued session carries its history already.
    const continued = await ask("TASK-GAMMA: continued", { args: ["--continue"] });
    expect(continued.sent).toContain("TASK-BETA: carry on");
    expect(continued.system).not.toContain("From cairn");

    expect(cairn(["hooks", "remove", "qwen"], { env: env() }).stdout).toContain("qwen: restored");
    expect(readFileSync(settingsPath(), "utf8")).toBe(USER_SETTINGS);
    expect((await ask("TASK-DELTA: and then")).sent).not.toContain("From cairn");
  });

  it("never stands in the way: a broken index, CAIRN_HOOKS=off", { timeout: 600_000 }, async () => {
    cairn(["hooks", "install", "qwen"], { env: env() });
    const db = breakIndex(join(root, "data"));
    const broken = await ask("TASK-EPSILON: still there?");
    expect(broken.answer).toContain("Done.");
    expect(broken.sent).not.toContain("From cairn");
    expect(cairn(["hooks", "status"], { env: env() }).stdout).toMatch(/last error: .*/);

    rmSync(db, { force: true });
    expect((await ask("TASK-ZETA: the index is rebuilt")).system).toContain("From cairn");
    // The next brief is of TASK-ZETA's session, and does not quote the brief that session was given.
    const theta = await ask("TASK-THETA: once more");
    expect(theta.system).toContain("TASK-ZETA: the index is rebuilt");
    expect(theta.system.match(/From cairn, before this session began/g)).toHaveLength(1);
    const off = await ask("TASK-IOTA: not this one", { env: { CAIRN_HOOKS: "off" } });
    expect(off.answer).toContain("Done.");
    expect(off.sent).not.toContain("From cairn");
    expect(cairn(["hooks", "status"], { env: env() }).stdout).toContain("skipped: CAIRN_HOOKS=off");
    cairn(["hooks", "remove", "--all"], { env: env() });
    expect(readFileSync(settingsPath(), "utf8")).toBe(USER_SETTINGS);
  });
});
