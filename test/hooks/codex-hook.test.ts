/**
 * `cairn hooks` with the real Codex CLI against a fake Responses API on 127.0.0.1: after `install` (the hook in
 * `~/.codex/hooks.json`, its trust in `config.toml`, so that Codex runs it unasked), the first request of a new
 * session in a folder with history carries a cited brief of the session before; a resumed session does not run
 * the hook, nor does Codex without the trust entry; after `remove`, nothing, and both files are byte for byte what
 * they were; with the index broken Codex still starts and answers, and `hooks status` says why there was no brief.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { responses } from "../../scripts/clients/fake/responses.ts";
import { agentCli } from "../helpers/agent-cli.ts";
import { cairn } from "../helpers/cli.ts";
import { breakIndex, expectCitationsOpen, homeEnv, type LocalServer, runAgent, serveLocal } from "./hook-world.ts";

let server: LocalServer;
let url = "";
/** Every request body sent to the Responses API, in order. */
const requests: string[] = [];
let root = "";
let codex = "";

beforeAll(async () => {
  codex = agentCli("codex", "@openai/codex", "codex");
  server = await serveLocal((req, res, body) => {
    const path = req.url ?? "";
    if (req.method === "POST" && responses.matches("POST", path)) {
      requests.push(body);
      return responses.respond(res, { text: "Done." }, responses.parse(JSON.parse(body), path), path);
    }
    if (path.startsWith("/v1/models")) return void res.end('{"object":"list","data":[]}');
    res.writeHead(404).end();
  });
  url = server.url;
  root = mkdtempSync(join(tmpdir(), "cairn-codex-hooks-"));
  for (const dir of ["home/.codex", "work", "data", "state"]) mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(configPath(), userConfig());
}, 600_000);

afterAll(() => {
  server?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

const env = () => homeEnv(root);

const configPath = () => join(root, "home", ".codex", "config.toml");
const hooksPath = () => join(root, "home", ".codex", "hooks.json");
// The user's own files, in their own layout: cairn must keep them and give them back byte for byte.
const userConfig = () =>
  [
    "# my Codex",
    'model = "gpt-5.5"',
    'model_provider = "fake"',
    "",
    "[model_providers.fake]",
    'name    = "fake"',
    `base_url = "${url}/v1"`,
    'wire_api = "responses"',
    'env_key = "FAKE_API_KEY"',
  ].join("\n");
const USER_HOOKS =
  '{\n    "hooks": {\n        "SessionStart": [\n            { "matcher": "resume", "hooks": [ { "type": "command", "command": "true" } ] }\n        ]\n    }\n}\n';

/** One `codex exec` turn in the project (or `codex exec resume --last`), run without blocking: the fake API answers from this process. */
async function ask(
  prompt: string,
  more: Record<string, string> = {},
  resume = false,
): Promise<{ answer: string; sent: string }> {
  const before = requests.length;
  const args = ["exec", ...(resume ? ["resume", "--last"] : [])];
  const flags = ["--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox"];
  const { stdout: answer } = await runAgent(codex, [...args, ...flags, prompt], {
    cwd: join(root, "work"),
    timeout: 120_000,
    stdio: ["ignore", "pipe", "pipe"],
    env: { PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, ...env(), FAKE_API_KEY: "dummy", ...more },
  });
  return { answer, sent: requests.slice(before).join("\n") };
}

describe("cairn hooks with the real Codex CLI", () => {
  it("briefs a new session from the one before, not a resumed one, and stops once removed", {
    timeout: 600_000,
  }, async () => {
    expect((await ask("TASK-ALPHA: fix the tokenizer in src/tokenize.ts")).answer).toContain("Done.");
    writeFileSync(hooksPath(), USER_HOOKS);
    const config = readFileSync(configPath(), "utf8");

    expect(cairn(["hooks", "install", "codex"], { env: env() }).stdout).toContain("codex: installed");
    expect(cairn(["hooks", "install", "codex"], { env: env() }).stdout).toContain("codex: already installed");
    expect(JSON.parse(readFileSync(hooksPath(), "utf8")).hooks.SessionStart).toHaveLength(2);
    const trusted = readFileSync(configPath(), "utf8");
    expect(trusted.startsWith(config)).toBe(true);
    expect(trusted).toContain(`[hooks.state."${hooksPath()}:session_start:1:0"]`);

    const { sent } = await ask("TASK-BETA: carry on");
    expect(sent).toContain("From cairn, before this session began");
    expect(sent).toContain("TASK-ALPHA: fix the tokenizer in src/tokenize.ts");
    expectCitationsOpen(sent, env());
    const status = cairn(["hooks", "status"], { env: env() }).stdout;
    expect(status).toMatch(/Codex \(codex\): installed/);
    expect(status).toMatch(/ran 1 times, 1 with a brief/);

    // A resumed session carries its history already: Codex does not even run the hook.
    expect((await ask("TASK-RESUMED: go on", {}, true)).answer).toContain("Done.");
    expect(cairn(["hooks", "status"], { env: env() }).stdout).toMatch(/ran 1 times, 1 with a brief/);
    expect((await ask("TASK-ZETA: not this one", { CAIRN_HOOKS: "off" })).sent).not.toContain("From cairn");

    expect(cairn(["hooks", "remove", "codex"], { env: env() }).stdout).toContain("codex: restored");
    expect(readFileSync(hooksPath(), "utf8")).toBe(USER_HOOKS);
    expect(readFileSync(configPath(), "utf8")).toBe(config);
    expect((await ask("TASK-GAMMA: and then")).sent).not.toContain("From cairn");
  });

  it("needs the trust in config.toml, and never stands in the way of a broken index", {
    timeout: 600_000,
  }, async () => {
    const config = readFileSync(configPath(), "utf8");
    cairn(["hooks", "install", "codex"], { env: env() });
    // Without its trust entry Codex does not run the hook (it would wait for the user to review it in /hooks).
    writeFileSync(configPath(), config);
    const runs = () => /ran (\d+) times/.exec(cairn(["hooks", "status"], { env: env() }).stdout)?.[1];
    const before = runs();
    expect(cairn(["hooks", "status"], { env: env() }).stdout).toMatch(/Codex \(codex\): not installed/);
    expect((await ask("TASK-UNTRUSTED: hello")).sent).not.toContain("From cairn");
    expect(runs()).toBe(before);
    expect(cairn(["hooks", "install", "codex"], { env: env() }).stdout).toContain("codex: installed");

    const db = breakIndex(join(root, "data"));
    const broken = await ask("TASK-DELTA: still there?");
    expect(broken.answer).toContain("Done.");
    expect(broken.sent).not.toContain("From cairn");
    expect(cairn(["hooks", "status"], { env: env() }).stdout).toMatch(/last error: .*/);

    rmSync(db, { force: true });
    expect((await ask("TASK-EPSILON: the index is rebuilt")).sent).toContain("From cairn");
    cairn(["hooks", "remove", "--all"], { env: env() });
    expect(readFileSync(hooksPath(), "utf8")).toBe(USER_HOOKS);
  });
});
