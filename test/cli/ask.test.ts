/**
 * `cairn ask` through the real CLI against a fake OpenAI-compatible server on 127.0.0.1 (chat completions,
 * streamed as server-sent events), over the real transcripts indexed into a temp database.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexPaths, openStore } from "../../src/index.ts";
import { createTokenCounter } from "../../src/resume/tokens.ts";
import { CLI, type CliRun, cairn } from "../helpers/cli.ts";
import { REPO, realFixturesDir } from "../helpers/transcripts.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-ask-cli-"));
const db = join(dir, "cairn.db");
const QUESTION = "why did python hoge.py fail with target shim binary not found?";

interface Exchange {
  system: string;
  user: string;
}
/** What the fake model answers, given the pack it was sent; `hold` delays the rest until released. */
let reply: (ex: Exchange) => string[] = () => ["nothing"];
let hold: Promise<void> | null = null;
const seen: Exchange[] = [];
let server: Server;
let url = "";
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
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", async () => {
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
        res.writeHead(404).end();
        return;
      }
      const parsed = JSON.parse(body) as { messages: Array<{ role: string; content: unknown }> };
      const text = (m: { content: unknown } | undefined) =>
        typeof m?.content === "string"
          ? m.content
          : Array.isArray(m?.content)
            ? (m.content as Array<{ text?: string }>).map((p) => p.text ?? "").join("")
            : "";
      const ex = {
        system: text(parsed.messages.find((m) => m.role === "system" || m.role === "developer")),
        user: text(parsed.messages.find((m) => m.role === "user")),
      };
      seen.push(ex);
      res.writeHead(200, { "content-type": "text/event-stream" });
      const chunk = (delta: object, finish: string | null) =>
        `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 0, model: "fake", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      let pieces: string[];
      try {
        pieces = reply(ex);
      } catch (error) {
        pieces = [`fake model: ${String(error)}`];
      }
      res.write(chunk({ role: "assistant", content: pieces[0] }, null));
      if (hold) await hold;
      for (const p of pieces.slice(1)) res.write(chunk({ content: p }, null));
      res.write(chunk({}, "stop"));
      res.end("data: [DONE]\n\n");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise((r) => server?.close(r));
  rmSync(dir, { recursive: true, force: true });
});

const env = () => ({ HOME: dir, CAIRN_ASK_PROVIDER: "", CAIRN_ASK_MODEL: "", CAIRN_ASK_URL: "", NO_COLOR: "1" });

/** Runs the CLI without blocking this process (the fake server answers from it); `onOut` sees stdout as it comes. */
function ask(args: string[], onOut?: (so_far: string) => void): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, "ask", ...args, "--db", db], {
      cwd: REPO,
      env: { ...process.env, ...env() },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
      onOut?.(stdout);
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** The id of the pack block whose text holds `needle`. */
function blockWith(pack: string, needle: string): string {
  for (const block of pack.split(/\n(?=\[e:)/)) {
    const id = /^\[e:([^\]]+)\]/.exec(block)?.[1];
    if (id && block.includes(needle)) return id;
  }
  throw new Error(`no block with ${needle}`);
}

const MODEL = () => ["--url", url, "--model", "fake-model"];

describe("cairn ask", () => {
  it("streams a good answer, checks its citation and lists the cited event", async () => {
    reply = (ex) => {
      const id = blockWith(ex.user, "target shim binary not found");
      return ["Running python hoge.py failed: ", `error: target shim binary not found [e:${id}].`];
    };
    const r = await ask([QUESTION, ...MODEL()]);
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    expect(seen.at(-1)!.system).toContain("[e:<id>]");
    expect(r.stdout).toContain("checked: 1 of 1 claims cite evidence that supports them");
    expect(r.stdout).toMatch(/cited events:\n .*codex .*target shim binary not found/);
  });

  it("catches an invented citation and one outside the pack, and --strict removes them", async () => {
    reply = (ex) => {
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
    reply = () => ["Nothing here answers it."];
    for (const budget of [500, 2000]) {
      const r = await ask([QUESTION, ...MODEL(), "--budget", String(budget)]);
      expect(r.code).toBe(0);
      const sent = seen.at(-1)!.user;
      expect(createTokenCounter().count(sent)).toBeLessThanOrEqual(budget);
      expect(sent).toContain("[e:");
    }
  });

  it("streams: the first piece is printed before the model has finished", async () => {
    let release = () => {};
    hold = new Promise((r) => {
      release = r;
    });
    reply = () => ["FIRST-PIECE ", "second piece."];
    let sawFirstAlone = false;
    const r = await ask([QUESTION, ...MODEL()], (soFar) => {
      if (soFar.includes("FIRST-PIECE") && !soFar.includes("second piece")) {
        sawFirstAlone = true;
        release();
      }
    });
    hold = null;
    expect(sawFirstAlone).toBe(true);
    expect(r.stdout).toContain("FIRST-PIECE second piece.");
  });

  it("without a model says how to configure one and exits 3; --dry-run prints the pack and sends nothing", async () => {
    const before = seen.length;
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
    expect(seen.length).toBe(before);
  });
});
