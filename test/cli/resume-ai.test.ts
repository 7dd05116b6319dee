/**
 * `cairn resume --ai` through the real CLI against a fake OpenAI-compatible server: a rewrite that keeps every
 * must-keep fact word for word with valid citations is handed over; one that drops a constraint or an open failure,
 * or cites an event the brief does not, is rejected with the reason and the deterministic brief is printed.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { terminalText } from "../../src/app/shape/terminal-text.ts";
import { cairn, cairnAsync } from "../helpers/cli.ts";
import { type FakeModel, faithfulBrief, startFakeModel } from "../helpers/fake-openai.ts";
import { type TempIndex, tempIndex } from "../helpers/temp-index.ts";
import { realFixturesDir } from "../helpers/transcripts.ts";

/** The Claude Code session with constraints and open failures in its ledger. */
const SESSION = "0fae0449";
let index: TempIndex;
let fake: FakeModel;

beforeAll(async () => {
  index = tempIndex("cairn-resume-ai-", [realFixturesDir()]);
  fake = await startFakeModel();
}, 120_000);
afterAll(async () => {
  await fake?.close();
  index?.remove();
});

const env = () => ({
  HOME: index.dir,
  XDG_CONFIG_HOME: join(index.dir, "config"),
  CAIRN_ASK_PROVIDER: "",
  CAIRN_ASK_MODEL: "",
  CAIRN_ASK_URL: "",
  NO_COLOR: "1",
});
const resume = (...args: string[]) => cairnAsync(["resume", SESSION, "--db", index.db, ...args], { env: env() });
const AI = () => ["--ai", "--url", fake.url, "--model", "fake-model"];

describe("cairn resume --ai", { timeout: 120_000 }, () => {
  it("hands over the model's brief when it keeps every must-keep fact and its citations check out", async () => {
    fake.reply = (ex) => faithfulBrief(ex);
    const r = await resume(...AI());
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/fake-model wrote the brief .* keeps all \d+ must-keep facts/);
    expect(fake.seen.at(-1)!.user).toContain("## Ledger");
    expect(r.stdout).not.toContain("## Ledger");
    expect(r.stdout).toMatch(/^- .*\[e:[0-9a-f]+\]/m);
  });

  it("rejects a brief that drops a constraint, says why, and prints the deterministic brief", async () => {
    const plain = cairn(["resume", SESSION, "--db", index.db, "--json"], { env: env() });
    const brief = JSON.parse(plain.stdout) as { text: string; must_keep: Array<{ kind: string; needle: string }> };
    const constraint = brief.must_keep.find((m) => m.kind === "constraint")!;
    expect(constraint).toBeDefined();
    fake.reply = (ex) => faithfulBrief(ex, (f) => f === constraint.needle);
    const r = await resume(...AI());
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("was rejected: it dropped 1 fact the brief must keep");
    expect(r.stderr).toContain("constraint:");
    // Printed for a terminal: the transcript's control characters (a \r before a newline) made inert.
    expect(r.stdout).toBe(terminalText(brief.text));
  });

  it("rejects a brief that drops an open failure or cites an event the brief does not", async () => {
    const plain = cairn(["resume", SESSION, "--db", index.db, "--json"], { env: env() });
    const brief = JSON.parse(plain.stdout) as { must_keep: Array<{ kind: string; needle: string }> };
    const failure = brief.must_keep.find((m) => m.kind === "open_failure")!;
    expect(failure).toBeDefined();
    fake.reply = (ex) => faithfulBrief(ex, (f) => f === failure.needle);
    const dropped = await resume(...AI(), "--json");
    const out = JSON.parse(dropped.stdout) as { ai: { chosen: string; missing: string[] } };
    expect(out.ai.chosen).toBe("deterministic");
    expect(out.ai.missing).toEqual([`open_failure: ${failure.needle}`]);

    fake.reply = (ex) => [...faithfulBrief(ex), "- The deploy to production succeeded [e:0123456789abcdef].\n"];
    const invented = await resume(...AI());
    expect(invented.stderr).toMatch(/was rejected: 1 of its \d+ citations do not check out \(unknown id\)/);
    expect(invented.stdout).toContain("## Ledger");
  });

  it("--print-command hands the accepted brief to the agent; no model is exit 3; model flags need --ai", async () => {
    fake.reply = (ex) => faithfulBrief(ex);
    const r = await resume(...AI(), "--print-command", "claude");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^cd .* && claude /);
    expect(r.stdout).not.toContain("## Ledger");
    const none = cairn(["resume", SESSION, "--db", index.db, "--ai"], { env: env() });
    expect(none.code).toBe(3);
    expect(none.stderr).toContain("no model is configured");
    const stray = cairn(["resume", SESSION, "--db", index.db, "--model", "x"], { env: env() });
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain("--provider, --model and --url choose the model of --ai");
  });

  it("uses the model 'cairn ask --save' remembered, and names a malformed settings file", async () => {
    fake.reply = () => ["Nothing here answers it."];
    const saved = await cairnAsync(
      ["ask", "what failed?", "--db", index.db, "--url", fake.url, "--model", "saved-model", "--save"],
      { env: env() },
    );
    expect(saved.code).toBe(0);
    const file = join(index.dir, "config", "cairn", "config.json");
    expect(saved.stderr).toContain(`saved openai-compatible/saved-model as the default model in ${file}`);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({
      model: { provider: "openai-compatible", model: "saved-model", url: fake.url },
    });
    fake.reply = (ex) => faithfulBrief(ex);
    const r = await resume("--ai");
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("openai-compatible/saved-model wrote the brief");
    writeFileSync(file, "{ not json");
    const broken = cairn(["resume", SESSION, "--db", index.db, "--ai"], { env: env() });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(`${file} is not JSON`);
    rmSync(file);
  });
});
