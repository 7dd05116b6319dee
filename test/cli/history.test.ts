/** The built CLI end to end over the real transcripts: index, search, sessions, timeline and the main job. */
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compareVersions } from "../../scripts/clients/install.ts";
import { cairn } from "../helpers/cli.ts";
import { REPO, realFixturesDir } from "../helpers/transcripts.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-hist-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const db = join(dir, "cairn.db");
const json = (args: string[], env: Record<string, string> = {}) => {
  const r = cairn(args, { env });
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
};

describe("cairn index / search / sessions / timeline", () => {
  it("index --json prints only JSON: the summary and the problems", () => {
    const out = json(["index", "--root", realFixturesDir(), "--db", db, "--json"]);
    expect(out).toMatchObject({ db, files: 8, changed: 8, unchanged: 0, sessions: 8, problems: 0, errors: [] });
    expect(out["events"]).toBeGreaterThan(3000);
    expect(out["problem_lines"]).toEqual([]);
    const again = json(["index", "--root", realFixturesDir(), "--db", db, "--json"]);
    expect(again).toMatchObject({ changed: 0, unchanged: 8, events: 0 });
  });

  it("index PATH (as --root) prints one summary line without a terminal, and CAIRN_DB picks the database", () => {
    const r = cairn(["index", realFixturesDir()], { env: { CAIRN_DB: db } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^indexed 8 files \(0 changed, 8 unchanged\), 8 sessions, \+0 events, 0 problems, 0\.0 MB in [\d.]+ s \([\d.]+ MB\/s\)\n$/,
    );
  });

  it("search --json: hits with id, session, provider, project, time, kind, snippet and evidence", () => {
    const out = json(["search", "error: TS2554", "--db", db, "--json", "--limit", "3"]);
    expect(out["query"]).toBe("error: TS2554");
    const hits = out["hits"] as Array<Record<string, unknown>>;
    expect(hits).toHaveLength(3);
    for (const h of hits) {
      expect(Object.keys(h)).toEqual([
        "event_id",
        "session_id",
        "session_short",
        "provider",
        "project",
        "timestamp",
        "event_type",
        "status",
        "score",
        "snippet",
        "evidence",
        "source_file",
        "source_line",
        "source_gone",
        "fused",
        "signals",
        "why",
      ]);
      expect(h).toMatchObject({ provider: "pi", project: "pi-mono", event_type: "error", source_gone: false });
      expect(h["snippet"]).toContain("«TS2554»");
    }
  });

  it("a malformed query is one clear line and exit 2, never an SQL error", () => {
    const r = cairn(["search", 'since:soon "broken', "--db", db]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^cairn search: bad query: /);
    expect(r.stderr).not.toMatch(/SQLITE|fts5|syntax error/i);
    const empty = cairn(["search", "tool:", "--db", db]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("'tool:' needs a tool name");
  });

  it("a long query is searched, never an FTS5 parser error: a pasted paragraph, long OR chains, exclusions, nesting", () => {
    const words = Array.from({ length: 1_000 }, (_, i) => `word${i}`);
    const queries = [
      `${words.slice(0, 100).join(" ")} shim binary`,
      `${words.join(" ")} shim`,
      words.slice(0, 300).join(" OR "),
      `shim ${words
        .slice(0, 300)
        .map((w) => `-${w}`)
        .join(" ")}`,
      words
        .slice(0, 200)
        .map((w) => `"${w} shim"`)
        .join(" "),
      `${"(".repeat(500)}shim${")".repeat(500)}`,
      `${'"'.repeat(301)}shim`,
    ];
    for (const q of queries) {
      const r = cairn(["search", "--db", db, "--json", "--", q]);
      expect(r.stderr, q.slice(0, 60)).not.toMatch(/SQLITE|fts5|stack/i);
      expect([0, 1, 2], q.slice(0, 60)).toContain(r.code);
    }
    // a paragraph holding the words is found by them (the first 32 terms are matched)
    const pasted = cairn([
      "search",
      "--db",
      db,
      "--json",
      "--mode",
      "lexical",
      "--",
      `target shim binary ${words.slice(0, 99).join(" ")}`,
    ]);
    expect(pasted.code).toBe(0);
    expect(JSON.parse(pasted.stdout).hits.length).toBeGreaterThan(0);
  });

  it("file: finds a path however it is written: absolute, relative, ./, ~/, a folder, backslashes", () => {
    const ids = (q: string, env: Record<string, string> = {}) => {
      const r = cairn(["search", q, "--db", db, "--json", "--limit", "200"], { env });
      expect(r.code, q).toBe(0);
      return (JSON.parse(r.stdout) as { hits: Array<{ event_id: string }> }).hits.map((h) => h.event_id).sort();
    };
    const abs = "/Users/User/repo/codemie-ai/codemie-code/src/agents/registry.ts";
    const relative = ids("file:src/agents/registry.ts");
    expect(relative.length).toBeGreaterThan(0);
    expect(ids(`file:${abs}`)).toEqual(relative);
    expect(ids("file:./src/agents/registry.ts")).toEqual(relative);
    expect(ids("file:~/repo/codemie-ai/codemie-code/src/agents/registry.ts", { HOME: "/Users/User" })).toEqual(
      relative,
    );
    expect(ids(`file:${abs.replaceAll("/", "\\")}`)).toEqual(relative);
    // a folder finds its files, though file actions show paths from the project's folder
    const folder = ids("file:/Users/User/repo/codemie-ai/codemie-code/src/agents/");
    expect(folder.length).toBeGreaterThan(relative.length);
    expect(folder).toEqual(expect.arrayContaining(relative));
    expect(cairn(["search", "file:/Users/User/repo/nothing-here.ts", "--db", db]).code).toBe(1);
  });

  it("sessions --json hides subagents unless --all", () => {
    const main = json(["sessions", "--db", db, "--json"]) as unknown as Array<Record<string, unknown>>;
    expect(main.map((s) => s["kind"])).not.toContain("subagent");
    expect(main).toHaveLength(7);
    for (const s of main)
      for (const k of [
        "session_id",
        "provider",
        "project",
        "cwd",
        "started_at",
        "updated_at",
        "event_count",
        "prompt_count",
        "tool_count",
        "error_count",
      ])
        expect(s).toHaveProperty(k);
    const all = json(["sessions", "--db", db, "--json", "--all"]) as unknown as Array<Record<string, unknown>>;
    expect(all).toHaveLength(8);
    const pi = json(["sessions", "--db", db, "--json", "--provider", "pi"]) as unknown as Array<
      Record<string, unknown>
    >;
    expect(pi.map((s) => s["provider"])).toEqual(["pi", "pi"]);
  });

  it("timeline by prefix, --json and text", () => {
    const out = json(["timeline", "624a4a58", "--db", db, "--json"]);
    expect((out["session"] as Record<string, unknown>)["session_id"]).toBe("624a4a58-b34c-462d-a70d-13421c8125a8");
    const rows = out["rows"] as Array<Record<string, unknown>>;
    expect(rows.some((r) => r["mark"] === "resume")).toBe(true);
    const text = cairn(["timeline", "624a4a58", "--db", db]);
    expect(text.stdout).toContain("⟲ compaction: This session is being continued");
    const missing = cairn(["timeline", "nope", "--db", db]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no session matches 'nope'");
  });

  it("commands that read the index say how to build one when there is none", () => {
    const r = cairn(["search", "x", "--db", join(dir, "none.db")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("no cairn index at");
    expect(r.stderr).toContain("run 'cairn index' first");
  });
});

describe("the main job: cairn with no arguments", () => {
  it("indexes the agents' own folders under HOME and shows the overview", () => {
    const home = join(dir, "home");
    const real = realFixturesDir();
    cpSync(join(real, "claude"), join(home, ".claude/projects/-Users-user-repo"), { recursive: true });
    cpSync(join(real, "codex"), join(home, ".codex/sessions/2026/01/01"), { recursive: true });
    cpSync(join(real, "pi"), join(home, ".pi/agent/sessions/--Users-x--"), { recursive: true });
    const r = cairn([], {
      env: {
        HOME: home,
        XDG_DATA_HOME: join(home, "data"),
        CLAUDE_CONFIG_DIR: "",
        CODEX_HOME: "",
        PI_CODING_AGENT_DIR: "",
        CAIRN_DB: "",
      },
    });
    expect(r.code).toBe(0);
    // The subagent session the index counted is said beside the seven listed, so the totals agree.
    expect(r.stdout).toMatch(/^cairn: 7 sessions \(\+1 subagent\), [\d,]+ events, \+\d+ new events/);
    expect(existsSync(join(home, "data/cairn/cairn.db"))).toBe(true);
    expect(r.stdout).toContain("By agent and project");
    expect(r.stdout).toContain("Most recent");
    expect(r.stdout).toContain("cairn resume --latest");
  });

  it("says which session a compaction's continuation picks up (Droid writes the rest of a session to a new one)", () => {
    const home = mkdtempSync(join(tmpdir(), "cairn-droid-"));
    const droid = join(REPO, "test/fixtures/clients/droid");
    cpSync(join(droid, readdirSync(droid).sort(compareVersions).at(-1)!, "home"), home, { recursive: true });
    const r = cairn([], { env: { HOME: home, XDG_DATA_HOME: join(home, "data"), CAIRN_DB: "" } });
    rmSync(home, { recursive: true, force: true });
    expect(r.code).toBe(0);
    // The continuation holds the last prompt; the session it continues, the ones before.
    const parent = /1 prompt, 1 tool call, 0 errors, continues ([0-9a-f-]{8,})/.exec(r.stdout)?.[1];
    expect(parent).toBeDefined();
    expect(r.stdout).toMatch(new RegExp(`TASK-A[^\\n]*  ${parent}\\n\\s+2 prompts`));
  });

  it("with --root and --json", () => {
    const out = json(["--root", realFixturesDir(), "--db", join(dir, "root.db"), "--json"]);
    expect(out["sessions"]).toBe(7);
    expect((out["by_agent"] as Array<{ provider: string }>).map((a) => a.provider).sort()).toEqual([
      "claude",
      "codex",
      "pi",
    ]);
    const recent = out["recent"] as Array<{ session: { session_id: string }; open_failures: unknown[] }>;
    expect(recent).toHaveLength(5);
  });

  it("on a machine with no transcripts it says so and shows how to point it somewhere", () => {
    const home = join(dir, "empty-home");
    const r = cairn([], {
      env: {
        HOME: home,
        XDG_DATA_HOME: join(home, "data"),
        CLAUDE_CONFIG_DIR: "",
        CODEX_HOME: "",
        PI_CODING_AGENT_DIR: "",
        CAIRN_DB: "",
      },
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("cairn found no transcripts yet.");
    expect(r.stdout).toContain("cairn --root");
  });
});
