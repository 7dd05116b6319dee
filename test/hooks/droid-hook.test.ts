/**
 * `cairn hooks` with the real Factory Droid CLI against a fake chat-completions API on 127.0.0.1 (a `customModels`
 * entry in `~/.factory/settings.json`, `droid exec`): after `install`, the first request of a new session in a folder
 * with history carries a cited brief of the session before (its citations open with `cairn show`); after `remove`,
 * the settings file is byte for byte what it was and the next session carries nothing; with the index broken Droid
 * still starts and answers.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensurePlatformBinary } from "../../scripts/clients/agents/droid.ts";
import { agentCli } from "../helpers/agent-cli.ts";
import { cairn } from "../helpers/cli.ts";
import { type FakeChat, fakeChat } from "../helpers/fake-chat.ts";
import { breakIndex, expectCitationsOpen, homeEnv, runAgent } from "./hook-world.ts";

let fake: FakeChat;
let root = "";
let droid = "";

beforeAll(async () => {
  droid = agentCli("droid", "@factory/cli", "droid");
  // <cache>/droid/<version>/node_modules/.bin/droid
  ensurePlatformBinary(dirname(droid), basename(dirname(dirname(dirname(droid)))));
  fake = await fakeChat(["fake-coder"]);
  root = mkdtempSync(join(tmpdir(), "cairn-hooks-droid-"));
  for (const dir of ["home", "work", "data", "state"]) mkdirSync(join(root, dir));
}, 600_000);

afterAll(() => {
  fake?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

const env = () => homeEnv(root);

/** One `droid exec` turn in the project (run without blocking: the fake API answers from this process). */
async function ask(prompt: string, more: Record<string, string> = {}) {
  const before = fake.requests.length;
  const { stdout: answer } = await runAgent(droid, ["exec", "-m", "custom:fake-coder", "--auto", "high", prompt], {
    cwd: join(root, "work"),
    timeout: 120_000,
    env: { PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, ...env(), FACTORY_DISABLE_AUTOUPDATE: "1", ...more },
  });
  return { answer, sent: fake.requests.slice(before).join("\n") };
}

const settingsPath = () => join(root, "home", ".factory", "settings.json");
/** The user's own settings, in their own layout, with a start hook of theirs: kept, and given back byte for byte. */
const userSettings = () =>
  `{\n    "customModels": [\n        { "model": "fake-coder", "displayName": "fake-coder", "baseUrl": "${fake.url}/v1", "apiKey": "dummy", "provider": "generic-chat-completion-api", "maxOutputTokens": 4096 }\n    ],\n    "hooks": {\n        "SessionStart": [\n            { "hooks": [ { "type": "command", "command": "echo started >> ${join(root, "user-hook.log")}" } ] }\n        ]\n    }\n}\n`;

/** `cairn hooks status`'s lines for Droid. */
function droidStatus(): string {
  const out = cairn(["hooks", "status"], { env: env() }).stdout;
  const at = out.indexOf("Factory Droid (droid)");
  expect(at, out).toBeGreaterThanOrEqual(0);
  const lines = out.slice(at).split("\n");
  const end = lines.findIndex((line, i) => i > 0 && !line.startsWith("  "));
  return lines.slice(0, end < 0 ? undefined : end).join("\n");
}

const briefs = (sent: string) => sent.split("From cairn, before this session began").length - 1;

describe("cairn hooks with the real Factory Droid CLI", () => {
  it("briefs a new session from the one before, and stops once removed", { timeout: 600_000 }, async () => {
    mkdirSync(dirname(settingsPath()), { recursive: true });
    writeFileSync(settingsPath(), userSettings());
    expect((await ask("TASK-ALPHA: fix the tokenizer in src/tokenize.ts")).answer).toContain("Done.");
    expect(readFileSync(join(root, "user-hook.log"), "utf8")).toBe("started\n");

    expect(cairn(["hooks", "install", "droid"], { env: env() }).stdout).toContain("droid: installed");
    expect(cairn(["hooks", "install", "droid"], { env: env() }).stdout).toContain("droid: already installed");
    const installed = JSON.parse(readFileSync(settingsPath(), "utf8"));
    expect(installed.customModels).toHaveLength(1);
    expect(installed.hooks.SessionStart).toHaveLength(2);

    const { sent, answer } = await ask("TASK-BETA: carry on");
    expect(answer).toContain("Done.");
    expect(briefs(sent)).toBe(1);
    expect(sent).toContain("TASK-ALPHA: fix the tokenizer in src/tokenize.ts");
    expectCitationsOpen(sent, env());
    // The user's own SessionStart hook still ran beside cairn's.
    expect(readFileSync(join(root, "user-hook.log"), "utf8")).toBe("started\nstarted\n");
    const status = droidStatus();
    expect(status).toMatch(/\(droid\): installed ·/);
    expect(status).toMatch(/ran 1 times, 1 with a brief/);
    expect(status).toMatch(/sessions indexed as they ended: 1/);

    expect((await ask("TASK-ZETA: not this one", { CAIRN_HOOKS: "off" })).sent).not.toContain("From cairn");

    expect(cairn(["hooks", "remove", "droid"], { env: env() }).stdout).toContain("droid: restored");
    expect(readFileSync(settingsPath(), "utf8")).toBe(userSettings());
    expect((await ask("TASK-GAMMA: and then")).sent).not.toContain("From cairn");
  });

  it("never stands in the way: a broken index", { timeout: 600_000 }, async () => {
    cairn(["hooks", "install", "droid"], { env: env() });
    const db = breakIndex(join(root, "data"));
    const broken = await ask("TASK-DELTA: still there?");
    expect(broken.answer).toContain("Done.");
    expect(broken.sent).not.toContain("From cairn");
    expect(droidStatus()).toMatch(/last error: .*/);

    rmSync(db, { force: true });
    expect(briefs((await ask("TASK-EPSILON: the index is rebuilt")).sent)).toBe(1);
    expect(cairn(["hooks", "remove", "droid"], { env: env() }).stdout).toContain("droid: restored");
    expect(readFileSync(settingsPath(), "utf8")).toBe(userSettings());
  });
});
