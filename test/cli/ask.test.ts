/**
 * `cairn ask` through the real CLI against a fake OpenAI-compatible server on 127.0.0.1 (chat completions,
 * streamed as server-sent events), over the real transcripts indexed into a temp database.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexPaths, openStore } from "../../src/index.ts";
import { createTokenCounter } from "../../src/resume/tokens.ts";
import { type CliRun, cairn, cairnAsync } from "../helpers/cli.ts";
import { blockWith, type FakeModel, startFakeModel } from "../helpers/fake-openai.ts";
import { realFixturesDir } from "../helpers/transcripts.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-ask-cli-"));
const db = join(dir, "cairn.db");
const QUESTION = "why did python hoge.py fail with target shim binary not found?";

let fake: FakeModel;
/** An event of another session (a pi one), which the shim question's pack does not hold. */
let elsewhere = "";

beforeAll(async () => {
  const store = openStore(db);
  try {
    indexPaths({ store, paths: [realFixturesDir()], parallel: false });
    const pi = store.listSessions({ provider: ["pi"], limit: 1 })[0]!;
    elsewhere = store.sessionEvents(pi.session_id, { from: 0, to: 10 }).at(-1)!.event_id;
  } finally {
    store.close();
  }
  fake = await startFakeModel();
});
afterAll(async () => {
  await fake?.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = () => ({ HOME: dir, CAIRN_ASK_PROVIDER: "", CAIRN_ASK_MODEL: "", CAIRN_ASK_URL: "", NO_COLOR: "1" });

/** Runs `cairn ask` without blocking this process (the fake server answers from it). */
function ask(args: string[], onOut?: (soFar: string) => void): Promise<CliRun> {
  return cairnAsync(["ask", ...args, "--db", db], { env: env(), ...(onOut ? { onOut } : {}) });
}

const MODEL = () => ["--url", fake.url, "--model", "fake-model"];

describe("cairn ask", () => {
  it("streams a good answer, checks its citation and lists the cited event", async () => {
    fake.reply = (ex) => {
      const id = blockWith(ex.user, "target shim binary not found");
      return ["Running python hoge.py failed: ", `error: target shim binary not found [e:${id}].`];
    };
    const r = await ask([QUESTION, ...MODEL()]);
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    expect(fake.seen.at(-1)!.system).toContain("[e:<id>]");
    expect(r.stdout).toContain("checked: 1 of 1 claims cite evidence that supports them");
    expect(r.stdout).toMatch(/cited events:\n .*codex .*target shim binary not found/);
  });

  it("catches an invented citation and one outside the pack, and --strict removes them", async () => {
    fake.reply = (ex) => {
      const id = blockWith(ex.user, "target shim binary not found");
      return [
        `The shim binary was not found [e:${id}]. `,
        "It failed because libfoo.so was missing [e:0000000000000000]. ",
        `The shim binary was not found either [e:${elsewhere}].`,
      ];
    };
    const r = await ask([QUESTION, ...MODEL(), "--json"]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as {
      check: { sentences: Array<{ verdict: string; citations: Array<{ verdict: string }> }>; supported: number };
    };
    expect(out.check.sentences.map((s) => s.verdict)).toEqual(["supported", "unsupported", "unsupported"]);
    expect(out.check.sentences[1]!.citations[0]!.verdict).toBe("unknown_id");
    expect(out.check.sentences[2]!.citations[0]!.verdict).toBe("not_in_pack");
    const strict = await ask([QUESTION, ...MODEL(), "--strict"]);
    const [answer, report] = strict.stdout.split("checked:");
    expect(answer).toContain("The shim binary was not found [e:");
    expect(answer).not.toContain("libfoo.so");
    expect(answer).not.toContain("either");
    expect(report).toContain("is no event in the index (invented)");
    expect(report).toContain("is an event, but not one the model was given");
  });

  it("sends a pack within the budget, counted with the real tokenizer", async () => {
    fake.reply = () => ["Nothing here answers it."];
    for (const budget of [500, 2000]) {
      const r = await ask([QUESTION, ...MODEL(), "--budget", String(budget)]);
      expect(r.code).toBe(0);
      const sent = fake.seen.at(-1)!.user;
      expect(createTokenCounter().count(sent)).toBeLessThanOrEqual(budget);
      expect(sent).toContain("[e:");
    }
  });

  it("streams: the first piece is printed before the model has finished", async () => {
    let release = () => {};
    fake.hold = new Promise((r) => {
      release = r;
    });
    fake.reply = () => ["FIRST-PIECE ", "second piece."];
    let sawFirstAlone = false;
    const r = await ask([QUESTION, ...MODEL()], (soFar) => {
      if (soFar.includes("FIRST-PIECE") && !soFar.includes("second piece")) {
        sawFirstAlone = true;
        release();
      }
    });
    fake.hold = null;
    expect(sawFirstAlone).toBe(true);
    expect(r.stdout).toContain("FIRST-PIECE second piece.");
  });

  it("uses pi's own providers and stored logins (models.json, auth.json) when the environment has no key", async () => {
    const agent = join(dir, "pi-agent");
    mkdirSync(agent, { recursive: true });
    writeFileSync(
      join(agent, "models.json"),
      JSON.stringify({
        providers: {
          "team-llm": { baseUrl: fake.url, api: "openai-completions", models: [{ id: "fake-model" }] },
        },
      }),
    );
    writeFileSync(join(agent, "auth.json"), JSON.stringify({ "team-llm": { type: "api_key", key: "k-stored-123" } }), {
      mode: 0o600,
    });
    fake.reply = (ex) => {
      const id = blockWith(ex.user, "target shim binary not found");
      return [`error: target shim binary not found [e:${id}].`];
    };
    const r = await cairnAsync(["ask", QUESTION, "--db", db, "--provider", "team-llm", "--model", "fake-model"], {
      env: { ...env(), PI_CODING_AGENT_DIR: agent, PI_OFFLINE: "1" },
    });
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    expect(fake.seen.at(-1)!.authorization).toBe("Bearer k-stored-123");
    expect(r.stdout).toContain("checked: 1 of 1 claims cite evidence that supports them");
  });

  it("without a model says how to configure one and exits 3; --dry-run prints the pack and sends nothing", async () => {
    const before = fake.seen.length;
    const none = cairn(["ask", QUESTION, "--db", db], { env: env() });
    expect(none.code).toBe(3);
    expect(none.stderr).toContain("no model is configured");
    expect(none.stderr).toContain("--url");
    const keyless = cairn(["ask", QUESTION, "--db", db, "--provider", "anthropic", "--model", "claude-sonnet-4-5"], {
      env: { ...env(), ANTHROPIC_API_KEY: "", ANTHROPIC_OAUTH_TOKEN: "" },
    });
    expect(keyless.code).toBe(3);
    expect(keyless.stderr).toContain("provider 'anthropic' has no key in the environment");
    const dry = cairn(["ask", QUESTION, "--db", db, "--dry-run", "--budget", "1000"], { env: env() });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("target shim binary not found");
    expect(createTokenCounter().count(dry.stdout)).toBeLessThanOrEqual(1000);
    expect(fake.seen.length).toBe(before);
  });
});
