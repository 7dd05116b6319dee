/**
 * The brief a session-start hook hands the model, over real transcripts from public repositories (Claude Code,
 * Codex, pi): the budget is a cap (the line before the brief included, counted with the o200k tokenizer), the brief
 * cites events that `cairn show` opens, it names the session it comes from, and a folder with no history gets
 * nothing at all.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTokenCounter } from "../../src/resume/tokens.ts";
import { cairn } from "../helpers/cli.ts";
import { realFixtures } from "../helpers/transcripts.ts";

let root = "";
const env = () => ({
  HOME: join(root, "home"),
  XDG_DATA_HOME: join(root, "data"),
  XDG_STATE_HOME: join(root, "state"),
  CAIRN_HOOKS: "",
});
let sessions: Array<{ session_id: string; cwd: string; provider: string }> = [];

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "cairn-hook-brief-"));
  expect(cairn(["index", ...realFixtures()], { env: env() }).code).toBe(0);
  sessions = JSON.parse(cairn(["sessions", "--json", "--limit", "100"], { env: env() }).stdout);
  expect(new Set(sessions.map((s) => s.provider))).toEqual(new Set(["claude", "codex", "pi"]));
});

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

function hook(cwd: string): string {
  const input = JSON.stringify({ session_id: "new-session", cwd, source: "startup" });
  const run = cairn(["hooks", "run", "claude"], { env: env(), input });
  expect(run.code).toBe(0);
  expect(run.stderr).toBe("");
  return run.stdout;
}

describe("the session-start brief over real sessions", () => {
  const counter = createTokenCounter();

  for (const budget of [500, 1500]) {
    it(`stays within a budget of ${budget} tokens and cites what cairn show opens`, () => {
      expect(cairn(["hooks", "install", "claude", "--budget", String(budget)], { env: env() }).code).toBe(0);
      const latest = new Map<string, string>();
      for (const s of sessions) if (s.cwd && !latest.has(s.cwd)) latest.set(s.cwd, s.session_id);
      for (const [cwd, id] of latest) {
        const out = hook(cwd);
        const context: string = JSON.parse(out).hookSpecificOutput.additionalContext;
        expect(counter.count(context), cwd).toBeLessThanOrEqual(budget);
        expect(context).toContain("From cairn, before this session began");
        expect(context).toContain(`cairn resume ${id.slice(0, 8)}`);
        const cited = [...context.matchAll(/\[e:([0-9a-f]{16})\]/g)].map((m) => m[1] as string);
        expect(cited.length, cwd).toBeGreaterThan(0);
        for (const ref of [...new Set(cited)].slice(0, 3)) expect(cairn(["show", ref], { env: env() }).code).toBe(0);
      }
    });
  }

  it("prints nothing in a folder with no history", () => {
    expect(hook(join(root, "a-folder-never-worked-in"))).toBe("");
    expect(cairn(["hooks", "status"], { env: env() }).stdout).toContain("nothing: no history");
  });
});
