/**
 * `cairn hooks` with the real GitHub Copilot CLI, offline (COPILOT_OFFLINE) against a fake chat-completions API on
 * 127.0.0.1: after `install`, the first request of a new session in a folder with history carries a cited brief of
 * the session before (its citations open with `cairn show`), a resumed session gets none, and the user's own hooks
 * file still runs beside cairn's; after `remove`, cairn's file is gone, the user's is byte for byte what it was, and
 * the next session carries nothing; with the index broken Copilot still starts and answers.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cacheDir } from "../../scripts/clients/install.ts";
import { agentCli } from "../helpers/agent-cli.ts";
import { cairn } from "../helpers/cli.ts";
import { type FakeChat, fakeChat } from "../helpers/fake-chat.ts";
import { breakIndex, expectCitationsOpen, homeEnv, runAgent } from "./hook-world.ts";

let fake: FakeChat;
let root = "";
let copilot = "";

beforeAll(async () => {
  copilot = agentCli("copilot", "@github/copilot", "copilot");
  fake = await fakeChat(["claude-sonnet-4.5"]);
  root = mkdtempSync(join(tmpdir(), "cairn-hooks-copilot-"));
  for (const dir of ["home", "work", "data", "state"]) mkdirSync(join(root, dir));
}, 600_000);

afterAll(() => {
  fake?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

const env = () => homeEnv(root);

/**
 * One `copilot -p` turn in the project (run without blocking: the fake API answers from this process). The CLI
 * unpacks itself (some 200 MB) under `$XDG_CACHE_HOME/copilot/pkg/<version>`: once, beside the installed clients.
 */
async function ask(prompt: string, more: Record<string, string> = {}, args: string[] = []) {
  const before = fake.requests.length;
  const { stdout: answer } = await runAgent(copilot, ["-p", prompt, "--allow-all", ...args], {
    cwd: join(root, "work"),
    timeout: 120_000,
    env: {
      PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
      ...env(),
      XDG_CACHE_HOME: join(cacheDir(), "copilot-unpacked"),
      COPILOT_OFFLINE: "true",
      COPILOT_PROVIDER_BASE_URL: `${fake.url}/v1`,
      COPILOT_PROVIDER_API_KEY: "dummy",
      COPILOT_MODEL: "claude-sonnet-4.5",
      ...more,
    },
  });
  return { answer, sent: fake.requests.slice(before).join("\n") };
}

const hooksDir = () => join(root, "home", ".copilot", "hooks");
const ourFile = () => join(hooksDir(), "cairn.json");
const userFile = () => join(hooksDir(), "mine.json");
/** The user's own hooks file, in their own layout: it must keep running and be left byte for byte. */
const userHooks = () =>
  `{\n    "version": 1,\n    "hooks": {\n        "sessionStart": [\n            { "type": "command", "bash": "echo started >> ${join(root, "user-hook.log")}", "timeoutSec": 5 }\n        ]\n    }\n}\n`;

/** `cairn hooks status`'s lines for Copilot. */
function copilotStatus(): string {
  const out = cairn(["hooks", "status"], { env: env() }).stdout;
  const at = out.indexOf("GitHub Copilot CLI (copilot)");
  expect(at, out).toBeGreaterThanOrEqual(0);
  const lines = out.slice(at).split("\n");
  const end = lines.findIndex((line, i) => i > 0 && !line.startsWith("  "));
  return lines.slice(0, end < 0 ? undefined : end).join("\n");
}

const briefs = (sent: string) => sent.split("From cairn, before this session began").length - 1;

describe("cairn hooks with the real GitHub Copilot CLI", () => {
  it("briefs a new session from the one before, not a resumed one, and stops once removed", {
    timeout: 600_000,
  }, async () => {
    expect((await ask("TASK-ALPHA: fix the tokenizer in src/tokenize.ts")).answer).toContain("Done.");
    mkdirSync(hooksDir(), { recursive: true });
    writeFileSync(userFile(), userHooks());

    expect(cairn(["hooks", "install", "copilot"], { env: env() }).stdout).toContain("copilot: installed");
    expect(cairn(["hooks", "install", "copilot"], { env: env() }).stdout).toContain("copilot: already installed");
    const ours = JSON.parse(readFileSync(ourFile(), "utf8"));
    expect(ours.version).toBe(1);
    expect(ours.hooks.sessionStart).toEqual([
      { type: "command", bash: expect.stringMatching(/ hooks run copilot$/), timeoutSec: 10 },
    ]);

    const { sent, answer } = await ask("TASK-BETA: carry on");
    expect(answer).toContain("Done.");
    expect(briefs(sent)).toBe(1);
    expect(sent).toContain("TASK-ALPHA: fix the tokenizer in src/tokenize.ts");
    expectCitationsOpen(sent, env());
    // The user's own sessionStart hook ran beside cairn's.
    expect(readFileSync(join(root, "user-hook.log"), "utf8")).toBe("started\n");
    let status = copilotStatus();
    expect(status).toMatch(/\(copilot\): installed ·/);
    expect(status).toMatch(/ran 1 times, 1 with a brief/);

    // A resumed session carries its own conversation and gets no brief (Copilot keeps a start hook's context out of
    // the history it resumes: the transcript has it only in the `hook.end` event).
    const resumed = await ask("TASK-BETA-2: and on", {}, ["--continue"]);
    expect(resumed.sent).toContain("TASK-BETA: carry on");
    expect(briefs(resumed.sent)).toBe(0);
    status = copilotStatus();
    expect(status).toMatch(/ran 2 times, 1 with a brief/);
    expect(status).toContain("skipped: a resume session carries its own history");

    expect((await ask("TASK-ZETA: not this one", { CAIRN_HOOKS: "off" })).sent).not.toContain("From cairn");

    expect(cairn(["hooks", "remove", "copilot"], { env: env() }).stdout).toContain("copilot: restored");
    expect(existsSync(ourFile())).toBe(false);
    expect(readFileSync(userFile(), "utf8")).toBe(userHooks());
    expect((await ask("TASK-GAMMA: and then")).sent).not.toContain("From cairn");
  });

  it("never stands in the way: a broken index", { timeout: 600_000 }, async () => {
    cairn(["hooks", "install", "copilot"], { env: env() });
    const db = breakIndex(join(root, "data"));
    const broken = await ask("TASK-DELTA: still there?");
    expect(broken.answer).toContain("Done.");
    expect(broken.sent).not.toContain("From cairn");
    expect(copilotStatus()).toMatch(/last error: .*/);

    rmSync(db, { force: true });
    expect(briefs((await ask("TASK-EPSILON: the index is rebuilt")).sent)).toBe(1);
    cairn(["hooks", "remove", "copilot"], { env: env() });
    expect(existsSync(ourFile())).toBe(false);
  });
});
