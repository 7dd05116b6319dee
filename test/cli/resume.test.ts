/** The built CLI: resume (md, json, --at, --step, --exec pi, --print-command), show, checkpoints, checkpoint, verify. */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cairn } from "../helpers/cli.ts";
import { PiSession } from "../resume/session-builder.ts";
import { CHECK_ERROR, CORRECTION, STORY_ID, story } from "../resume/story.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-resume-cli-"));
const db = join(dir, "cairn.db");
const sessions = join(dir, "sessions", "--app--");
/** The session's working directory exists, so --exec and --print-command can start the agent there. */
const cwd = join(dir, "app");
const bin = join(dir, "bin");
const record = join(dir, "agent");
const env = { PATH: `${bin}:${process.env["PATH"]}`, FAKE_AGENT_OUT: record };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (args: string[]) => cairn([...args, "--db", db], { env, cwd });
const ok = (args: string[]) => {
  const r = run(args);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return r.stdout;
};
const json = (args: string[]) => JSON.parse(ok(args)) as Record<string, unknown>;
const index = () => ok(["index", "--root", join(dir, "sessions")]);

beforeAll(() => {
  mkdirSync(sessions, { recursive: true });
  mkdirSync(cwd);
  mkdirSync(bin);
  // A stand-in agent: records where it ran and its arguments (NUL-separated), then exits.
  for (const name of ["pi", "claude", "codex"]) {
    writeFileSync(
      join(bin, name),
      `#!/bin/sh\npwd > "$FAKE_AGENT_OUT.cwd"\nfor a in "$@"; do printf '%s\\0' "$a"; done > "$FAKE_AGENT_OUT.argv"\nexit 7\n`,
    );
    chmodSync(join(bin, name), 0o755);
  }
  const s = story(STORY_ID, cwd);
  writeFileSync(join(sessions, s.file()), s.text());
  index();
});

const recorded = () => ({
  cwd: readFileSync(`${record}.cwd`, "utf8").trim(),
  argv: readFileSync(`${record}.argv`, "utf8").split("\0").slice(0, -1),
});

// Each test spawns the CLI several times (the citation test once per citation): on two cores shared with a
// parallel suite that is more than the default 30 s, though nothing here waits on time.
describe("cairn resume", { timeout: 120_000 }, () => {
  it("--format json has exactly the documented shape, and its text is the Markdown output", () => {
    const out = json(["resume", STORY_ID.slice(0, 8), "--budget", "3000", "--format", "json"]);
    expect(Object.keys(out)).toEqual([
      "session_id",
      "session_short",
      "at",
      "step",
      "budget_tokens",
      "tokens",
      "original_tokens",
      "ratio",
      "text",
      "sections",
      "citations",
      "validation",
      "must_keep",
      "view",
      "fallback",
      "source",
      "budget_note",
    ]);
    expect(Object.keys(out["validation"] as object)).toEqual(["coverage", "missing", "entity_overlap", "ok"]);
    expect(out).toMatchObject({ session_id: STORY_ID, budget_tokens: 3000, validation: { coverage: 1, ok: true } });
    expect(out["tokens"]).toBeLessThanOrEqual(3000);
    expect(ok(["resume", STORY_ID, "--budget", "3000"])).toBe(out["text"]);
  });

  it("is deterministic across runs: the same bytes twice", () => {
    const a = run(["resume", STORY_ID, "--ratio", "0.5"]);
    const b = run(["resume", STORY_ID, "--ratio", "0.5"]);
    expect(a.code).toBe(0);
    expect(b.stdout).toBe(a.stdout);
  });

  it("every citation resolves with cairn show, which prints the event and its edges", () => {
    const out = json(["resume", STORY_ID, "--budget", "3000", "--format", "json"]);
    const cites = out["citations"] as Array<{ event_id: string; event_type: string; source_line: number }>;
    expect(cites.length).toBeGreaterThan(20);
    for (const c of cites.filter((_, i) => i % 5 === 0)) {
      const shown = json(["show", c.event_id, "--json"]) as { event: Record<string, unknown>; edges: object };
      expect(shown.event).toMatchObject({ event_id: c.event_id, event_type: c.event_type, source_line: c.source_line });
      expect(Object.keys(shown.edges)).toEqual(["out", "in"]);
    }
    const error = cites.filter((c) => c.event_type === "error").at(-1)!;
    const text = ok(["show", error.event_id.slice(0, 10)]);
    expect(text).toContain(`event ${error.event_id}`);
    expect(text).toContain(CHECK_ERROR);
    expect(text).toMatch(/edges out\n {2}derived_from +\[e:\w{16}\] \w+/);
    const missing = run(["show", "ffffffffffffffff"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no event matches 'ffffffffffffffff'");
  });

  it("--at builds the brief as of that event", () => {
    const events = (json(["timeline", STORY_ID, "--json"]) as { rows: Array<Record<string, unknown>> }).rows;
    const correction = events.find((e) => e["summary"] === CORRECTION || String(e["summary"]).includes(CORRECTION))!;
    const id = correction["event_id"] as string;
    const out = json(["resume", STORY_ID, "--at", id, "--format", "json"]);
    expect(out["at"]).toBe(id);
    expect(out["text"]).not.toContain("npm run check");
  });

  it("checkpoint records a step; checkpoints lists it beside the resume points; --step resumes there", () => {
    expect(ok(["checkpoints", STORY_ID])).toMatch(/^step +position +kind.*\n +1 +@\d+ +compaction /);
    expect(ok(["checkpoint", STORY_ID, "--step", "2", "--label", "check is red"])).toMatch(
      /^checkpoint: step 2 of 5e551011-\S+ at @\d+ \(\w{16}\) — check is red\n$/,
    );
    const list = json(["checkpoints", STORY_ID, "--json"]) as { checkpoints: Array<Record<string, unknown>> };
    expect(list.checkpoints.map((c) => [c["step"], c["kind"], c["label"]])).toEqual([
      [1, "compaction", "## Goal"],
      [2, "explicit", "check is red"],
    ]);
    const atStep = json(["resume", STORY_ID, "--step", "2", "--format", "json"]);
    expect(atStep).toMatchObject({ step: 2, at: list.checkpoints[1]!["event_id"] });
    expect(atStep["text"]).toContain(", for step 2.");
    const one = json(["resume", STORY_ID, "--step", "1", "--format", "json"]);
    expect(one).toMatchObject({ step: 1, at: list.checkpoints[0]!["event_id"] });
    const none = run(["resume", STORY_ID, "--step", "9"]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("no checkpoint for step 9; the session has steps 1, 2");
  });

  it("--exec pi starts pi in the session's folder with the brief as its first message", () => {
    const brief = ok(["resume", STORY_ID, "--budget", "2000"]);
    const r = run(["resume", STORY_ID, "--budget", "2000", "--exec", "pi"]);
    expect(r.code).toBe(7); // pi's own exit code
    expect(recorded()).toEqual({ cwd, argv: ["--", brief] });
  });

  it("--print-command prints a shell command that starts the agent there with the brief, exactly", () => {
    const brief = ok(["resume", STORY_ID, "--budget", "2000"]);
    for (const agent of ["claude", "codex"]) {
      const command = ok(["resume", STORY_ID, "--budget", "2000", "--print-command", agent]);
      expect(
        command.startsWith(`cd '${cwd}' && ${agent} '# Resume brief`) ||
          command.startsWith(`cd ${cwd} && ${agent} '# Resume brief`),
      ).toBe(true);
      const sh = spawnSync("/bin/sh", ["-c", command.trimEnd()], { env: { ...process.env, ...env }, cwd: dir });
      expect(sh.status).toBe(7);
      expect(recorded()).toEqual({ cwd, argv: [brief] });
    }
  });

  it("misuse is exit 2 with one clear line", () => {
    for (const [args, message] of [
      [["resume", STORY_ID, "--budget", "10", "--ratio", "0.1"], "give --budget or --ratio, not both"],
      [["resume", STORY_ID, "--at", "x", "--step", "1"], "give --at or --step, not both"],
      [["resume", STORY_ID, "--format", "html"], "--format is md or json"],
      [["resume", STORY_ID, "--exec", "claude"], "--exec starts pi only"],
      [["resume", STORY_ID, "--budget", "0"], "--budget takes a positive whole number"],
      [["checkpoint", STORY_ID], "give the step with --step N"],
    ] as const) {
      const r = run([...args]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toContain(message);
    }
  });

  it("resume verify: a verdict with evidence, exit 1 when the resumed session repeats a ledgered failure", () => {
    const brief = ok(["resume", STORY_ID, "--budget", "3000"]);
    const bad = new PiSession("00000bad-aaaa-4bbb-8ccc-0000000000cc", cwd)
      .user(brief)
      .bash("npm run check", CHECK_ERROR, 2);
    writeFileSync(join(sessions, bad.file()), bad.text());
    index();
    const r = run(["resume", "verify", "00000bad"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^broken: session 00000bad-\S+ resumed from 5e551011-\S+ as of \w{16}( \(step 2\))?\n/);
    expect(r.stdout).toMatch(/- repeated_failure @\d+ \[e:\w{16}\]: repeats the open failure of `npm run check`/);
    const out = run(["resume", "verify", "00000bad", "--json"]);
    expect(out.code).toBe(1);
    expect(JSON.parse(out.stdout)).toMatchObject({
      verdict: "broken",
      brief: { session_id: STORY_ID },
      findings: [{ kind: "repeated_failure" }],
    });
  });
});
