/** The built CLI: `cairn threads` and `cairn timeline --thread`, on synthetic sessions and on the real transcripts. */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providerCell } from "../../src/cli/format.ts";
import { cairn } from "../helpers/cli.ts";
import { realFixturesDir } from "../helpers/transcripts.ts";
import { sid, Work, writeWork } from "../threads/work.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-threads-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const db = join(dir, "cairn.db");
const run = (args: string[], env: Record<string, string> = {}) => {
  const r = cairn(args, { env });
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return r.stdout;
};
const json = (args: string[]) => JSON.parse(run([...args, "--json"])) as Record<string, unknown>;
type Obj = Record<string, unknown>;

beforeAll(() => {
  const root = join(dir, "transcripts");
  const auth = ["src/auth/token.ts", "src/auth/refresh.ts"];
  writeWork(
    root,
    new Work("claude", sid("a"), { start: "2026-01-01T10:00:00Z", branch: "feat-auth" })
      .prompt("fix the token refresh")
      .edit(...auth)
      .test(1),
    new Work("codex", sid("b"), { start: "2026-01-01T10:00:02Z", branch: "feat-auth" })
      .prompt("review the token refresh")
      .read(...auth, "package.json"),
    new Work("pi", sid("c"), { start: "2026-01-02T09:00:00Z", cwd: "/w/api" })
      .prompt("api")
      .edit("src/a.ts", "src/b.ts"),
    new Work("claude", sid("d"), { start: "2026-01-02T10:00:00Z", cwd: "/w/api" })
      .prompt("api")
      .read("src/a.ts", "src/b.ts"),
    new Work("pi", sid("e"), { start: "2026-01-03T09:00:00Z", cwd: "/w/solo" }).prompt("alone").edit("package.json"),
  );
  run(["index", "--root", root, "--db", db, "--json"]);
});

describe("cairn threads", () => {
  it("--json: threads with label, span, sessions and shared entities, newest first", () => {
    const out = json(["threads", "--db", db]);
    expect(Object.keys(out)).toEqual(["threads", "total"]);
    expect(out["total"]).toBe(2);
    const threads = out["threads"] as Obj[];
    expect(threads.map((t) => t["projects"])).toEqual([["api"], ["app"]]);
    for (const t of threads) {
      expect(Object.keys(t)).toEqual([
        "thread_id",
        "label",
        "label_reason",
        "started_at",
        "updated_at",
        "providers",
        "projects",
        "sessions",
        "shared",
        "shares",
      ]);
      expect(t["shares"]).toMatch(/^shares the \w+ `[^`]+`/);
      expect(t["thread_id"]).toMatch(/^[0-9a-f]{12}$/);
      expect(["open", "closed"]).toContain(t["label"]);
    }
    const app = threads[1]!;
    expect(app).toMatchObject({
      label: "open",
      providers: ["claude", "codex"],
      started_at: "2026-01-01T10:00:00.000Z",
    });
    const sessions = app["sessions"] as Obj[];
    expect(sessions.map((s) => [s["session_id"], s["provider"], s["project"], s["folded_into"]])).toEqual([
      [sid("a"), "claude", "app", null],
      [sid("b"), "codex", "app", null],
    ]);
    expect(Object.keys(sessions[0]!)).toEqual([
      "session_id",
      "session_short",
      "provider",
      "kind",
      "project",
      "cwd",
      "title",
      "started_at",
      "updated_at",
      "parent_session_id",
      "parent_session_short",
      "repository",
      "folded_into",
    ]);
    expect((app["shared"] as Obj[]).map((e) => [e["kind"], e["display"], e["sessions"]])).toEqual([
      ["file", "src/auth/refresh.ts", 2],
      ["file", "src/auth/token.ts", 2],
      ["branch", "feat-auth", 2],
    ]);
    expect(Object.keys((app["shared"] as Obj[])[0]!)).toEqual([
      "entity_id",
      "kind",
      "display",
      "sessions",
      "session_ids",
    ]);
  });

  it("--project, --all and --limit", () => {
    const api = json(["threads", "--db", db, "--project", "api"]);
    expect((api["threads"] as Obj[]).map((t) => t["projects"])).toEqual([["api"]]);
    const all = json(["threads", "--db", db, "--all"]);
    expect(all["total"]).toBe(3);
    const limited = json(["threads", "--db", db, "--all", "--limit", "1"]);
    expect([(limited["threads"] as Obj[]).length, limited["total"]]).toEqual([1, 3]);
  });

  it("prints one block per thread: id, label, span, sessions, shared entities", () => {
    const text = run(["threads", "--db", db]);
    const id = ((json(["threads", "--db", db])["threads"] as Obj[])[1]!["thread_id"] as string) ?? "";
    expect(text).toContain(`thread ${id}  open  2026-01-01 10:00 → 2026-01-01 10:00  2 sessions\n`);
    expect(text).toContain(`  ${providerCell("claude")} app              ${sid("a")}`);
    expect(text).toContain(`  ${providerCell("codex")} app              ${sid("b")}`);
    expect(text).toContain(
      "  shared: file src/auth/refresh.ts (2), file src/auth/token.ts (2), branch feat-auth (2)\n",
    );
    expect(text).not.toContain("package.json");
    expect(run(["threads", "--db", db, "--project", "solo"])).toBe("no threads match\n");
  });

  it("misuse is exit 2 with one line; CAIRN_DB picks the database", () => {
    for (const args of [["--limit", "0"], ["--bogus"], ["extra"]]) {
      const r = cairn(["threads", "--db", db, ...args]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/^cairn threads: /);
    }
    expect(JSON.parse(run(["threads", "--json"], { CAIRN_DB: db }))["total"]).toBe(2);
  });
});

describe("cairn timeline --thread", () => {
  it("--json: the thread and its sessions' events merged by time, each naming its session", () => {
    const threads = json(["threads", "--db", db])["threads"] as Obj[];
    const id = threads[1]!["thread_id"] as string;
    const out = json(["timeline", "--thread", id.slice(0, 6), "--db", db]);
    expect(Object.keys(out)).toEqual(["thread", "total_rows", "window", "rows", "earlier", "later"]);
    expect((out["thread"] as Obj)["thread_id"]).toBe(id);
    const events = out["rows"] as Obj[];
    expect(out).toMatchObject({ total_rows: events.length, earlier: null, later: null });
    expect(new Set(events.map((e) => e["session_id"]))).toEqual(new Set([sid("a"), sid("b")]));
    expect(events.every((e) => e["provider"] === (e["session_id"] === sid("a") ? "claude" : "codex"))).toBe(true);
    const times = events.map((e) => e["timestamp"] as string);
    expect(times).toEqual([...times].sort());
    expect(events.some((e) => e["mark"] === "test_fail")).toBe(true);
  });

  it("prints a legend of sessions and one row per event with its session tag and agent", () => {
    const id = ((json(["threads", "--db", db])["threads"] as Obj[])[1]!["thread_id"] as string).slice(0, 8);
    const text = run(["timeline", "--thread", id, "--db", db]);
    expect(text).toMatch(/^thread [0-9a-f]{12} \(open\) — 2 sessions: claude, codex\n/);
    expect(text).toContain(`  s1  ${providerCell("claude")} ${sid("a")}  app\n`);
    expect(text).toContain("\n── 2026-01-01 ──\n");
    expect(text).toMatch(/\n10:00:00 s1 {2}claude\s+0 › fix the token refresh\n/);
    expect(text).toMatch(/\n10:00:03 s2 {2}codex\s+0 › review the token refresh\n/);
    expect(text).toMatch(/s1 {2}claude\s+\d+ {3}✗ test `npx vitest run` fail, 1 failed, 3 passed/);
  });

  it("an unknown thread is exit 1; a session id with --thread, or no id at all, is exit 2", () => {
    const missing = cairn(["timeline", "--thread", "zzzz", "--db", db]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no thread matches 'zzzz'");
    expect(cairn(["timeline", sid("a"), "--thread", "abc", "--db", db]).code).toBe(2);
    expect(cairn(["timeline", "--db", db]).code).toBe(2);
    expect(cairn(["timeline", "--thread", "", "--db", db]).code).toBe(2);
  });
});

describe("on the real transcripts", () => {
  const realDb = join(dir, "real.db");
  beforeAll(() => {
    run(["index", "--root", realFixturesDir(), "--db", realDb, "--json"]);
  });

  it("lists every session as a well-formed thread, the subagent folded into its parent", () => {
    const out = json(["threads", "--db", realDb, "--all", "--limit", "100"]);
    const threads = out["threads"] as Obj[];
    expect(threads).toHaveLength(7);
    for (const t of threads) {
      expect(["open", "closed"]).toContain(t["label"]);
      expect(typeof t["label_reason"]).toBe("string");
      expect((t["sessions"] as Obj[]).length).toBeGreaterThan(0);
      expect((t["started_at"] as string) <= (t["updated_at"] as string)).toBe(true);
    }
    const sessions = threads.flatMap((t) => t["sessions"] as Obj[]);
    expect(sessions).toHaveLength(8);
    const sub = sessions.find((s) => s["kind"] === "subagent")!;
    expect(sub["folded_into"]).toBe("e9fb405b-169f-40eb-9396-7e75076f045d");
    // No two of these unrelated sessions share two rare keys.
    expect(json(["threads", "--db", realDb])["threads"]).toEqual([]);
    expect(run(["threads", "--db", realDb, "--all"])).toContain(
      "└ subagent e9fb405b-169f-40eb-9396-7e75076f045d:agent-",
    );
  });

  it("the merged timeline of the thread with a subagent holds both sessions' events", () => {
    const threads = json(["threads", "--db", realDb, "--all", "--project", "codemie-code"])["threads"] as Obj[];
    expect(threads).toHaveLength(1);
    const out = json(["timeline", "--thread", threads[0]!["thread_id"] as string, "--db", realDb]);
    const events = out["rows"] as Obj[];
    expect(new Set(events.map((e) => e["session_id"]))).toEqual(
      new Set(["e9fb405b-169f-40eb-9396-7e75076f045d", "e9fb405b-169f-40eb-9396-7e75076f045d:agent-a485154"]),
    );
  });
});
