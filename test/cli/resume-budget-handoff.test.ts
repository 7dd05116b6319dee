/**
 * `cairn resume` on a real 1.4 MB Claude Code session, through the built CLI: the ladder settles on the smallest
 * budget that validates and says on stderr why the brief is over the budget asked for (--strict refuses it), and
 * a brief too long for one command-line argument still reaches claude, codex and pi.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cairn } from "../helpers/cli.ts";
import { realFixture } from "../helpers/transcripts.ts";

const SESSION = "0fae0449-64d3-4788-8622-d3a47d82c14b";
const dir = mkdtempSync(join(tmpdir(), "cairn-resume-budget-"));
const db = join(dir, "cairn.db");
const bin = join(dir, "bin");
const record = join(dir, "agent");
const cache = join(dir, "cache");
const env = { PATH: `${bin}:${process.env["PATH"]}`, FAKE_AGENT_OUT: record, XDG_CACHE_HOME: cache };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (args: string[]) => cairn([...args, "--db", db], { env, cwd: dir });
const recordedArgv = () => readFileSync(`${record}.argv`, "utf8").split("\0").slice(0, -1);

beforeAll(() => {
  mkdirSync(join(dir, "sessions"), { recursive: true });
  mkdirSync(bin);
  copyFileSync(
    realFixture("claude/episodic-memory__large-conversation.jsonl"),
    join(dir, "sessions", `${SESSION}.jsonl`),
  );
  // Stand-in agents: record their arguments (NUL-separated), then exit 7.
  for (const name of ["pi", "claude", "codex"]) {
    writeFileSync(
      join(bin, name),
      `#!/bin/sh\nfor a in "$@"; do printf '%s\\0' "$a"; done > "$FAKE_AGENT_OUT.argv"\nexit 7\n`,
    );
    chmodSync(join(bin, name), 0o755);
  }
  expect(run(["index", "--root", join(dir, "sessions")]).code).toBe(0);
});

describe("cairn resume --budget", () => {
  it("a budget too small to validate: the smallest that does, and why on stderr; --strict refuses", () => {
    const r = run(["resume", SESSION, "--budget", "2000", "--format", "json"]);
    expect(r.code).toBe(0);
    const brief = JSON.parse(r.stdout) as {
      budget_tokens: number;
      tokens: number;
      original_tokens: number;
      validation: { ok: boolean };
      fallback: Array<{ step: string; budget_tokens: number; validation: { ok: boolean } }>;
    };
    expect(brief.validation.ok).toBe(true);
    // Not a jump to a fifth of the session: the largest budget that failed is within 5 % of the one chosen.
    expect(brief.budget_tokens).toBeLessThan(0.2 * brief.original_tokens);
    const failed = Math.max(2000, ...brief.fallback.filter((f) => !f.validation.ok).map((f) => f.budget_tokens));
    expect(brief.budget_tokens - failed).toBeLessThanOrEqual(Math.max(50, 0.05 * failed));
    const tokens = brief.tokens.toLocaleString("en-US");
    const chosen = brief.budget_tokens.toLocaleString("en-US");
    expect(r.stderr).toMatch(
      new RegExp(
        `^cairn resume: the brief is ${tokens} tokens, over the 2,000 asked for: at 2,000 it .+; ${chosen} is the smallest budget that validates\\n$`,
      ),
    );
    expect(r.stderr).toMatch(/at 2,000 it (left out \d+ must-keep facts|named too few)/);

    const strict = run(["resume", SESSION, "--budget", "2000", "--strict"]);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toBe("");
    expect(strict.stderr).toContain("over the 2,000 asked for");
    expect(strict.stderr).toContain("--strict refuses it");
  });
});

describe("a brief longer than one argument may be (Linux: 128 KiB)", () => {
  let brief = "";
  beforeAll(() => {
    const r = run(["resume", SESSION, "--budget", "40000"]);
    expect(r.code).toBe(0);
    brief = r.stdout;
    expect(Buffer.byteLength(brief)).toBeGreaterThan(128 * 1024);
  });

  /** Runs a printed command without its `cd` (the session's folder is on another machine). */
  function runPrinted(command: string) {
    const line = command.trimEnd();
    expect(line.length).toBeLessThan(100_000);
    const sh = spawnSync("/bin/sh", ["-c", line.replace(/^cd (?:'[^']*'|\S+) && /, "")], {
      env: { ...process.env, ...env },
      cwd: dir,
      encoding: "utf8",
    });
    expect(sh.stderr).toBe("");
    expect(sh.status).toBe(7);
    return recordedArgv();
  }

  it("--print-command pi: the brief is pi's first message, through an @file", () => {
    const argv = runPrinted(run(["resume", SESSION, "--budget", "40000", "--print-command", "pi"]).stdout);
    expect(argv).toHaveLength(2);
    expect(argv[0]).toBe("--");
    expect(argv[1]).toMatch(/^@/);
    const file = argv[1]!.slice(1);
    expect(file.startsWith(join(cache, "cairn", "briefs"))).toBe(true);
    expect(readFileSync(file, "utf8")).toBe(brief);
  });

  it("--print-command claude: the brief is appended to Claude Code's system prompt from its file", () => {
    const argv = runPrinted(run(["resume", SESSION, "--budget", "40000", "--print-command", "claude"]).stdout);
    expect(argv[0]).toBe("--append-system-prompt-file");
    expect(readFileSync(argv[1]!, "utf8")).toBe(brief);
    expect(argv[2]).toMatch(/resume brief/);
  });

  it("--print-command codex: Codex is asked to read the brief's file first", () => {
    const argv = runPrinted(run(["resume", SESSION, "--budget", "40000", "--print-command", "codex"]).stdout);
    expect(argv).toHaveLength(1);
    const file = /Read the resume brief in (\S+) before anything else/.exec(argv[0]!)?.[1];
    expect(readFileSync(file!, "utf8")).toBe(brief);
  });

  it("--exec pi starts pi with the brief through an @file", () => {
    const r = run(["resume", SESSION, "--budget", "40000", "--exec", "pi"]);
    expect(r.code).toBe(7);
    const argv = recordedArgv();
    expect(argv[0]).toBe("--");
    expect(readFileSync(argv[1]!.slice(1), "utf8")).toBe(brief);
  });
});
