import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import type { CliIo } from "../../src/cli/io.ts";
import { main } from "../../src/cli/main.ts";
import { request } from "./helpers/http.ts";

function io(signal?: AbortSignal) {
  const out: string[] = [];
  const err: string[] = [];
  const value: CliIo = {
    stdout: { write: (c: string) => out.push(c) },
    stderr: { write: (c: string) => err.push(c) },
    env: {},
    cwd: join(import.meta.dirname, "../.."),
    ...(signal ? { signal } : {}),
  };
  return { io: value, out: () => out.join(""), err: () => err.join("") };
}

describe("cairn serve", () => {
  it.each([
    [["--driver", "gpt"], /--driver must be one of pi, scripted, claude/],
    [["--driver", "scripted"], /--driver scripted needs --script FILE/],
    [["--script", "examples/live-demo.json"], /--script only goes with --driver scripted/],
    [["--port", "99999"], /--port must be 0\.\.65535/],
    [["--cwd", "/definitely/not/here"], /is not a directory/],
    [["--bogus"], /Unknown option '--bogus'/],
    [["--driver", "scripted", "--script", "package.json"], /package\.json: version: /],
    [["--provider", "anthropic"], /--provider and --model go together/],
    [["--driver", "scripted", "--script", "examples/live-demo.json", "--provider", "x"], /--provider only goes with/],
    [["--resume", ""], /--resume needs a session id/],
  ])("refuses %j with a usage error", async (args, message) => {
    const t = io();
    expect(await main(["serve", ...args], t.io)).toBe(2);
    expect(t.err()).toMatch(message);
    // One line and a pointer to --help, not the whole usage (the CLI's contract for usage errors).
    expect(t.err()).toContain("Run 'cairn serve --help' for usage.");
    expect(t.err()).not.toContain("Usage: cairn serve");
  });

  it("serves a scripted session on loopback, prints the URL, and stops on the signal", async () => {
    const stop = new AbortController();
    const t = io(stop.signal);
    const exit = main(["serve", "--driver", "scripted", "--script", "examples/live-demo.json", "--port", "0"], t.io);
    await vi.waitFor(() => expect(t.out()).toMatch(/Open http:\/\/127\.0\.0\.1:\d+\/\?token=/), { timeout: 10_000 });
    const url = new URL(t.out().match(/Open (\S+)/)![1]!);
    const state = await request(Number(url.port), {
      path: "/api/state",
      headers: { Host: url.host, Authorization: `Bearer ${url.searchParams.get("token")}` },
    });
    expect(JSON.parse(state.body).state).toMatchObject({ driver: "scripted", status: "idle" });
    expect(t.err()).not.toContain("WARNING");
    stop.abort();
    expect(await exit).toBe(0);
    expect(t.out()).toContain("shutting down");
  });

  it("reports a model pi does not know in the terminal, with what to do, before serving", async () => {
    const agentDir = mkdtempSync(join(tmpdir(), "cairn-serve-pi-"));
    const saved = { dir: process.env["PI_CODING_AGENT_DIR"], offline: process.env["PI_OFFLINE"] };
    process.env["PI_CODING_AGENT_DIR"] = agentDir;
    process.env["PI_OFFLINE"] = "1";
    try {
      const t = io();
      const code = await main(
        ["serve", "--provider", "anthropic", "--model", "no-such-model", "--cwd", agentDir],
        t.io,
      );
      expect(code).toBe(1);
      expect(t.err()).toContain("pi knows no model 'no-such-model' for provider 'anthropic'");
      expect(t.err()).toMatch(/Restart cairn serve with one of anthropic's models: claude-/);
      expect(t.out()).not.toContain("Open http");
    } finally {
      for (const [key, value] of [
        ["PI_CODING_AGENT_DIR", saved.dir],
        ["PI_OFFLINE", saved.offline],
      ] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
      rmSync(agentDir, { recursive: true, force: true });
    }
  });
});
