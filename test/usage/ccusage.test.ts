/**
 * `cairn usage` beside ccusage, installed from the npm registry, on the same Claude Code and Codex files: the real
 * fixtures, and a corpus of 300 transcripts cut from them with resumed Claude sessions and forked Codex rollouts
 * (bench/usage-corpus.ts). Per day and per session the token totals are equal to the token, and the cost to the
 * cent. Two differences are ccusage's own and are checked as such: on Claude Code files without request ids
 * (Bedrock) its daily report counts every copy of a message while its session report counts one, and cairn
 * agrees with the session report; its Codex session report counts a fork's copies of its parent's calls in both
 * sessions, cairn in the parent's only.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeUsageCorpus } from "../../bench/usage-corpus.ts";
import { ccusageBin } from "../helpers/ccusage.ts";
import { cairn } from "../helpers/cli.ts";
import { realFixturesDir } from "../helpers/transcripts.ts";

interface Row {
  key: string;
  total: number;
  cost: number;
}

const root = mkdtempSync(join(tmpdir(), "cairn-ccusage-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function ccusage(home: string, args: string[]): Record<string, unknown> {
  const env: Record<string, string> = { PATH: process.env["PATH"] ?? "", HOME: home, TZ: "UTC" };
  env["CODEX_HOME"] = join(home, ".codex");
  const out = execFileSync(ccusageBin().bin, [...args, "--json", "--offline", "-z", "UTC"], {
    env,
    maxBuffer: 1 << 30,
  });
  return JSON.parse(out.toString()) as Record<string, unknown>;
}

function theirs(json: Record<string, unknown>, list: "daily" | "sessions"): Row[] {
  return (json[list] as Array<Record<string, number | string>>).map((r) => ({
    key: String(r["date"] ?? r["sessionId"]).replace(/^.*rollout-[0-9T:-]{19}-/, ""),
    total: Number(r["totalTokens"]),
    cost: Number(r["totalCost"] ?? r["costUSD"]),
  }));
}

function ours(home: string, db: string, by: string, provider: string): Row[] {
  const roots = ["--root", join(home, ".claude"), "--root", join(home, ".codex")];
  const run = cairn(["usage", "--by", by, "--provider", provider, "--timezone", "UTC", "--db", db, "--json", ...roots]);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  const answer = JSON.parse(run.stdout) as { groups: Array<{ key: string; total: number; cost: number }> };
  return answer.groups.map((g) => ({ key: g.key, total: g.total, cost: g.cost }));
}

function expectSame(a: Row[], b: Row[], skip: ReadonlySet<string> = new Set()): void {
  const mine = new Map(b.map((r) => [r.key, r]));
  const kept = a.filter((r) => !skip.has(r.key));
  expect(kept.length).toBeGreaterThan(0);
  for (const r of kept) {
    const o = mine.get(r.key);
    expect({ key: r.key, total: o?.total }).toEqual({ key: r.key, total: r.total });
    expect(Math.abs((o?.cost ?? Number.NaN) - r.cost)).toBeLessThan(0.005);
  }
  expect(b.length).toBe(a.length);
}

describe("the real fixtures", () => {
  const home = join(root, "fixtures");
  const db = join(root, "fixtures.db");
  beforeAll(() => {
    const claude = join(home, ".claude/projects/-Users-user-repo");
    mkdirSync(claude, { recursive: true });
    // Laid out as Claude Code keeps them: the subagent's file under its parent session's folder.
    for (const f of ["codemie__session-624a4a58.jsonl", "episodic-memory__large-conversation.jsonl"])
      cpSync(join(realFixturesDir(), "claude", f), join(claude, f));
    cpSync(join(realFixturesDir(), "claude/codemie-incremental-subagents"), claude, { recursive: true });
    cpSync(join(realFixturesDir(), "codex"), join(home, ".codex/sessions/2026/01/01"), { recursive: true });
  });

  it("Claude Code: per session equal; per day equal where each message has its request id", () => {
    const sessions = theirs(ccusage(home, ["claude", "session"]), "sessions");
    // ccusage names a session by its file, cairn by the id inside (the fixtures were renamed when collected).
    const byValue = (rows: Row[]) => rows.map((r) => ({ ...r, key: String(r.total) }));
    expectSame(byValue(sessions), byValue(ours(home, db, "session", "claude")));
    const days = theirs(ccusage(home, ["claude", "daily"]), "daily");
    const mine = ours(home, db, "day", "claude");
    // 2025-09-20 holds the transcript written through Anthropic's API (request ids); the others are Bedrock's.
    expectSame(
      days.filter((d) => d.key === "2025-09-20"),
      mine.filter((d) => d.key === "2025-09-20"),
    );
    for (const d of days.filter((x) => x.key !== "2025-09-20")) {
      const session = sessions.filter((s) => mine.find((m) => m.key === d.key)?.total === s.total);
      expect(session.length, `${d.key}: cairn's day equals ccusage's session of that day`).toBe(1);
      expect(d.total).toBeGreaterThan(session[0]!.total);
    }
  });

  it("Codex: per day and per session equal", () => {
    expectSame(theirs(ccusage(home, ["codex", "daily"]), "daily"), ours(home, db, "day", "codex"));
    expectSame(theirs(ccusage(home, ["codex", "session"]), "sessions"), ours(home, db, "session", "codex"));
  });
});

describe("a corpus of 300 transcripts with resumed and forked sessions", () => {
  const home = join(root, "corpus");
  const db = join(root, "corpus.db");
  let forks = new Set<string>();
  beforeAll(() => {
    forks = new Set(writeUsageCorpus(home, 300).forks);
  });

  it("Claude Code: per day and per session equal", () => {
    expectSame(theirs(ccusage(home, ["claude", "daily"]), "daily"), ours(home, db, "day", "claude"));
    expectSame(theirs(ccusage(home, ["claude", "session"]), "sessions"), ours(home, db, "session", "claude"));
  });

  it("Codex: per day equal; per session equal but for forks, which ccusage charges their parents' calls again", () => {
    expectSame(theirs(ccusage(home, ["codex", "daily"]), "daily"), ours(home, db, "day", "codex"));
    const sessions = theirs(ccusage(home, ["codex", "session"]), "sessions");
    const mine = ours(home, db, "session", "codex");
    expect(forks.size).toBeGreaterThan(0);
    expectSame(sessions, mine, forks);
    for (const f of forks)
      expect(sessions.find((s) => s.key === f)!.total).toBeGreaterThan(mine.find((m) => m.key === f)!.total);
  });
});
