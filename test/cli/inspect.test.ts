import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cairn } from "../helpers/cli.ts";
import { realFixture, realFixturesDir } from "../helpers/transcripts.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("cairn inspect (built CLI)", () => {
  it("--json prints { sessions, events, edges, entities, problems } with the documented event fields", () => {
    const res = cairn([
      "inspect",
      "--json",
      realFixture("codex/agtrace__rollout-2025-12-10T04-55-16-019b04ae-b1c6-7c72-a134-a4c2de66058c.jsonl"),
    ]);
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout) as Record<string, unknown[]>;
    expect(Object.keys(out)).toEqual(["sessions", "events", "edges", "entities", "problems"]);
    expect(out["events"]!.length).toBeGreaterThan(10);
    for (const e of out["events"] as Array<Record<string, unknown>>) {
      for (const k of [
        "event_id",
        "session_id",
        "provider",
        "ordinal",
        "event_type",
        "timestamp",
        "text",
        "source_file",
        "source_line",
      ])
        expect(e).toHaveProperty(k);
    }
    expect(out["problems"]).toEqual([]);
  });

  it("reads a whole folder and lists problems with file, line and reason", () => {
    const bad = join(dir, "bad.jsonl");
    writeFileSync(
      bad,
      `${JSON.stringify({ type: "session", version: 3, id: "s1", cwd: "/w" })}\nnot json\n${JSON.stringify({ type: "wat", id: "x1", parentId: null })}\n`,
    );
    const json = cairn(["inspect", "--json", dir]);
    const out = JSON.parse(json.stdout) as {
      problems: Array<{ source_file: string; source_line: number; reason: string }>;
    };
    expect(out.problems).toEqual([
      expect.objectContaining({ source_file: bad, source_line: 2, reason: expect.stringMatching(/invalid JSON/) }),
      expect.objectContaining({ source_file: bad, source_line: 3, reason: "unknown record type 'wat'" }),
    ]);
    const human = cairn(["inspect", dir]);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(`${bad}:2  invalid JSON`);
    expect(human.stdout).toContain("pi main session s1");
  });

  it("summarises every real transcript in a folder", () => {
    const res = cairn(["inspect", realFixturesDir()]);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^8 files, 8 sessions, \d+ events/);
    expect(res.stdout).toContain("claude subagent session e9fb405b-169f-40eb-9396-7e75076f045d:agent-a485154");
    expect(res.stdout).toContain("tools    bash 192, edit 146, read 50, write 3");
  });

  it("misuse: exit 2 with usage; a missing path: exit 1 with the reason", () => {
    const usage = cairn(["inspect"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toBe(
      "cairn inspect: give at least one transcript file or folder\nRun 'cairn inspect --help' for usage.\n",
    );
    const missing = cairn(["inspect", join(dir, "nope.jsonl")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`cairn inspect: no such file or folder: ${join(dir, "nope.jsonl")}\n`);
    expect(cairn(["frobnicate"]).code).toBe(2);
  });
});
