/**
 * pi's session-start brief, through pi's own CLI with cairn's package loaded (`pi -e <package dir>`) against a fake
 * model on 127.0.0.1: a new session in a folder with an earlier pi session starts with a cited brief of it in the
 * system prompt; a continued session, `CAIRN_HOOKS=off` and a folder turned off get none; `cairn hooks status`
 * counts pi's runs.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cairn } from "../../helpers/cli.ts";
import { type FakeModel, startFakeModel } from "../../helpers/fake-openai.ts";
import { piCli, piVersion } from "../helpers/pi-cli.ts";

const root = fileURLToPath(new URL("../../../", import.meta.url));
let fake: FakeModel;
let scratch = "";
const dir = (name: string) => join(scratch, name);
const env = () => ({ HOME: dir("home"), XDG_DATA_HOME: dir("data"), XDG_STATE_HOME: dir("state") });

beforeAll(async () => {
  fake = await startFakeModel();
  fake.reply = () => ["Done."];
  scratch = mkdtempSync(join(tmpdir(), "cairn-pi-start-"));
  for (const name of ["home", "agent", "work", "data", "state"]) mkdirSync(dir(name));
  const models = [{ id: "fake", contextWindow: 128000, maxTokens: 4096 }];
  const provider = { baseUrl: fake.url, api: "openai-completions", apiKey: "dummy", models };
  writeFileSync(join(dir("agent"), "models.json"), JSON.stringify({ providers: { fake: provider } }));
  writeFileSync(join(dir("agent"), "settings.json"), JSON.stringify({ defaultProvider: "fake", defaultModel: "fake" }));
});

afterAll(async () => {
  await fake?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** One `pi -p` turn in the project, with cairn's package; the system prompt the model was sent. */
async function ask(prompt: string, more: string[] = [], moreEnv: Record<string, string> = {}): Promise<string> {
  const before = fake.seen.length;
  // stdin closed: pi -p reads piped input as part of the prompt.
  const child = spawn(process.execPath, [piCli, "-e", root, ...more, "-p", prompt], {
    cwd: dir("work"),
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
      ...env(),
      PI_CODING_AGENT_DIR: dir("agent"),
      PI_OFFLINE: "1",
      PI_SKIP_VERSION_CHECK: "1",
      PI_TELEMETRY: "0",
      ...moreEnv,
    },
  });
  let out = "";
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString();
  });
  child.stderr.on("data", (d: Buffer) => {
    out += d.toString();
  });
  const code = await new Promise<number | null>((done) => child.on("close", done));
  expect(code, out).toBe(0);
  expect(out).toContain("Done.");
  const sent = fake.seen.slice(before);
  expect(sent.length, out).toBeGreaterThan(0);
  return sent[0]?.system ?? "";
}

describe(`pi ${piVersion}: a new session starts with a brief of the earlier work in its folder`, () => {
  it("briefs a new session, not a continued one, and honours CAIRN_HOOKS=off and a folder turned off", {
    timeout: 300_000,
  }, async () => {
    expect(await ask("TASK-ALPHA: fix the tokenizer in src/tokenize.ts")).not.toContain("From cairn");

    const system = await ask("TASK-BETA: carry on");
    expect(system).toContain("From cairn, before this session began");
    expect(system).toContain("TASK-ALPHA: fix the tokenizer in src/tokenize.ts");
    const cited = [...system.matchAll(/\[e:([0-9a-f]{16})\]/g)].map((m) => m[1] as string);
    expect(cited.length).toBeGreaterThan(0);
    for (const id of new Set(cited)) expect(cairn(["show", id], { env: env() }).code).toBe(0);
    expect(cairn(["hooks", "status"], { env: env() }).stdout).toMatch(
      /pi \(cairn's extension\): .*\n\s+ran 2 times, 1 with a brief/,
    );

    expect(await ask("TASK-GAMMA: go on", ["-c"])).not.toContain("From cairn");
    expect(await ask("TASK-DELTA: not this one", [], { CAIRN_HOOKS: "off" })).not.toContain("From cairn");
    cairn(["hooks", "off", dir("work")], { env: env() });
    expect(await ask("TASK-EPSILON: nor this one")).not.toContain("From cairn");
    expect(cairn(["hooks", "status"], { env: env() }).stdout).toContain("skipped: opted out");
  });
});
