/**
 * `cairn hooks` with the real Gemini CLI against a fake Gemini API on 127.0.0.1: after `install`, the first request
 * of a new session in a folder with history carries a cited brief of the session before (`gemini -p` puts the
 * hook's context before the prompt, in `<hook_context>`); a resumed session gets none; after `remove`, nothing, and
 * the settings file is byte for byte what it was; with the index broken or the session turned off, Gemini still
 * starts and answers, and `hooks status` says why there was no brief.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { geminiSide } from "../../scripts/clients/agents/gemini.ts";
import { gemini as geminiApi } from "../../scripts/clients/fake/gemini.ts";
import { agentCli } from "../helpers/agent-cli.ts";
import { cairn } from "../helpers/cli.ts";
import { breakIndex, expectCitationsOpen, homeEnv, type LocalServer, runAgent, serveLocal } from "./hook-world.ts";

let server: LocalServer;
let url = "";
/** Every main request's contents (the side questions of the CLI's model router are answered apart). */
const requests: Array<Array<{ role?: string; parts?: Array<{ text?: string }> }>> = [];
let root = "";
let gemini = "";

beforeAll(async () => {
  gemini = agentCli("gemini", "@google/gemini-cli", "gemini");
  server = await serveLocal((req, res, body) => {
    const path = req.url ?? "";
    if (!geminiApi.matches(req.method ?? "", path)) return void res.writeHead(404).end("{}");
    const parsed = JSON.parse(body) as { contents: (typeof requests)[number] };
    const conv = geminiApi.parse(parsed, path);
    const side = geminiSide(conv, path, parsed);
    if (!side) requests.push(parsed.contents);
    geminiApi.respond(res, side ?? { text: "Done." }, conv, path);
  });
  url = server.url;
  root = mkdtempSync(join(tmpdir(), "cairn-hooks-gemini-"));
  for (const dir of ["home", "work", "data", "state", "tmp"]) mkdirSync(join(root, dir));
}, 600_000);

afterAll(() => {
  server?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

const env = () => homeEnv(root);

const textOf = (content: (typeof requests)[number][number] | undefined) =>
  (content?.parts ?? []).map((p) => p.text ?? "").join("\n");

/** One `gemini -p` turn in the project (run without blocking: the fake API answers from this process). */
async function ask(
  prompt: string,
  more: { env?: Record<string, string>; args?: string[] } = {},
): Promise<{ answer: string; sent: string; last: string }> {
  const before = requests.length;
  const { stdout: answer, stderr } = await runAgent(gemini, ["-p", prompt, "--yolo", ...(more.args ?? [])], {
    cwd: join(root, "work"),
    timeout: 120_000,
    env: {
      PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
      ...env(),
      TMPDIR: join(root, "tmp"),
      GOOGLE_GEMINI_BASE_URL: url,
      GEMINI_API_KEY: "dummy",
      GEMINI_CLI_TRUST_WORKSPACE: "true",
      ...more.env,
    },
  });
  // Nothing of cairn's reaches the user's screen: a hook's plain output would be shown there.
  expect(stderr).not.toMatch(/From cairn|hooks run gemini/);
  const sent = requests.slice(before);
  return {
    answer,
    sent: sent.map((contents) => contents.map(textOf).join("\n")).join("\n"),
    last: textOf(sent[0]?.at(-1)),
  };
}

const settingsPath = () => join(root, "home", ".gemini", "settings.json");
// The user's own settings, in their own layout: cairn must keep them and give them back byte for byte.
const USER_SETTINGS =
  '{\n    "security": { "auth": { "selectedType": "gemini-api-key" } },\n    "general": { "enableAutoUpdate": false, "enableAutoUpdateNotification": false },\n    "privacy": { "usageStatisticsEnabled": false },\n    "hooks": {\n        "SessionStart": [\n            { "matcher": "resume", "hooks": [ { "type": "command", "command": "true" } ] }\n        ]\n    }\n}\n';

describe("cairn hooks with the real Gemini CLI", () => {
  it("briefs a new session from the one before, not a resumed one, and stops once removed", {
    timeout: 600_000,
  }, async () => {
    mkdirSync(dirname(settingsPath()), { recursive: true });
    writeFileSync(settingsPath(), USER_SETTINGS);
    expect((await ask("TASK-ALPHA: fix the tokenizer in src/tokenize.ts")).answer).toContain("Done.");

    expect(cairn(["hooks", "install", "gemini"], { env: env() }).stdout).toContain("gemini: installed");
    expect(cairn(["hooks", "install", "gemini"], { env: env() }).stdout).toContain("gemini: already installed");
    const installed = JSON.parse(readFileSync(settingsPath(), "utf8"));
    expect(installed.security).toEqual({ auth: { selectedType: "gemini-api-key" } });
    expect(installed.hooks.SessionStart.map((g: { matcher?: string }) => g.matcher)).toEqual([
      "resume",
      "startup",
      "clear",
    ]);

    const beta = await ask("TASK-BETA: carry on");
    expect(beta.last).toContain("From cairn, before this session began");
    expect(beta.last).toContain("TASK-ALPHA: fix the tokenizer in src/tokenize.ts");
    expect(beta.last).toContain("TASK-BETA: carry on");
    expectCitationsOpen(beta.sent, env());
    const status = cairn(["hooks", "status"], { env: env() }).stdout;
    expect(status).toMatch(/Gemini CLI \(gemini\): installed/);
    expect(status).toMatch(/ran 1 times, 1 with a brief/);
    expect(status).toMatch(/sessions indexed as they ended: 1/);

    // The next new session is briefed from TASK-BETA's, whose prompt is read apart from the brief before it.
    const gamma = await ask("TASK-GAMMA: and the next");
    expect(gamma.last).toContain("TASK-BETA: carry on");
    expect(gamma.last.match(/From cairn, before this session began/g)).toHaveLength(1);

    // A resumed session carries its history already: its new prompt comes alone. (Gemini CLI leaves out of a
    // resumed history every user message that starts with <hook_context>, so TASK-GAMMA's turn shows only its answer.)
    const resumed = await ask("TASK-DELTA: resumed", { args: ["--resume", "latest"] });
    expect(resumed.sent).toContain("Done.");
    expect(resumed.last).toContain("TASK-DELTA: resumed");
    expect(resumed.sent).not.toContain("From cairn");

    expect(cairn(["hooks", "remove", "gemini"], { env: env() }).stdout).toContain("gemini: restored");
    expect(readFileSync(settingsPath(), "utf8")).toBe(USER_SETTINGS);
    expect((await ask("TASK-EPSILON: and then")).sent).not.toContain("From cairn");
  });

  it("never stands in the way: a broken index, CAIRN_HOOKS=off", { timeout: 600_000 }, async () => {
    cairn(["hooks", "install", "gemini"], { env: env() });
    const db = breakIndex(join(root, "data"));
    const broken = await ask("TASK-ZETA: still there?");
    expect(broken.answer).toContain("Done.");
    expect(broken.sent).not.toContain("From cairn");
    expect(cairn(["hooks", "status"], { env: env() }).stdout).toMatch(/last error: .*/);

    rmSync(db, { force: true });
    expect((await ask("TASK-ETA: the index is rebuilt")).last).toContain("From cairn");
    const off = await ask("TASK-THETA: not this one", { env: { CAIRN_HOOKS: "off" } });
    expect(off.answer).toContain("Done.");
    expect(off.sent).not.toContain("From cairn");
    expect(cairn(["hooks", "status"], { env: env() }).stdout).toContain("skipped: CAIRN_HOOKS=off");
    cairn(["hooks", "remove", "--all"], { env: env() });
    expect(readFileSync(settingsPath(), "utf8")).toBe(USER_SETTINGS);
  });
});
