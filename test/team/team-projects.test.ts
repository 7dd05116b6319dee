/**
 * One repository checked out under two homes is one project: the indexer reads each session's repository remote
 * from `.git/config` on its machine, and `project:` searches, `sessions --project` and `threads --project` find
 * the sessions of both homes by the repository's name, on a team index (a real PostgreSQL server) and in SQLite.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cairn } from "../helpers/cli.ts";
import { type PgCluster, pgSkipReason, startPg } from "../helpers/postgres.ts";
import { realFixturesDir } from "../helpers/transcripts.ts";

const skip = pgSkipReason();
if (skip) console.warn(`team index project tests skipped: ${skip}`);

function ok(r: { code: number | null; stdout: string; stderr: string }): string {
  if (r.code !== 0) throw new Error(`cairn exited ${r.code}: ${r.stderr}${r.stdout}`);
  return r.stdout;
}

/** A repository folder with a remote, and a transcript whose working folder is moved into it. */
function checkout(home: string, repo: string, remote: string, fixture: string, cwd: string): string {
  const root = join(home, repo);
  mkdirSync(join(root, ".git"), { recursive: true });
  mkdirSync(join(root, "src"), { recursive: true });
  writeFileSync(
    join(root, ".git", "config"),
    `[core]\n\trepositoryformatversion = 0\n[remote "origin"]\n\turl = ${remote}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n`,
  );
  const t = join(home, "t", fixture.replace(/^.*\//, ""));
  mkdirSync(join(home, "t"), { recursive: true });
  writeFileSync(t, readFileSync(join(realFixturesDir(), fixture), "utf8").split(cwd).join(root));
  return root;
}

describe.skipIf(skip !== null)(
  "projects across homes",
  () => {
    let pg: PgCluster;
    let dir: string;
    let homeA: string;
    let homeB: string;

    beforeAll(async () => {
      pg = await startPg();
      dir = mkdtempSync(join(tmpdir(), "cairn-team-proj-"));
      homeA = join(dir, "home", "a");
      homeB = join(dir, "Users", "b");
      checkout(
        homeA,
        "src/widget",
        "git@github.com:acme/widget.git",
        "claude/codemie__session-624a4a58.jsonl",
        "/Users/user/repo",
      );
      checkout(
        homeB,
        "code/widget-app",
        "https://github.com/Acme/widget",
        "codex/agtrace__rollout-2025-12-10T04-55-16-019b04ae-b1c6-7c72-a134-a4c2de66058c.jsonl",
        "/Users/zawakin/agent-sample",
      );
      // a session in no repository on this machine keeps its folder's name
      copyFileSync(
        join(realFixturesDir(), "claude", "episodic-memory__large-conversation.jsonl"),
        join(homeB, "t", "other.jsonl"),
      );
    }, 120_000);

    afterAll(() => {
      pg?.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it("two homes whose checkouts share a remote are one project, on PostgreSQL and in SQLite", () => {
      const sqlite = join(dir, "cairn.db");
      for (const db of [pg.url, sqlite])
        for (const [home, machine] of [
          [homeA, "laptop-a"],
          [homeB, "laptop-b"],
        ] as const)
          ok(cairn(["index", "--json", "--db", db, join(home, "t")], { env: { HOME: home, CAIRN_MACHINE: machine } }));
      const env = { HOME: join(dir, "home") };
      for (const db of [pg.url, sqlite]) {
        const sessions = JSON.parse(ok(cairn(["sessions", "--json", "--all", "--db", db], { env }))) as Array<{
          session_id: string;
          project: string | null;
          cwd: string;
          meta?: Record<string, unknown>;
        }>;
        const widget = sessions.filter((s) => s.project === "widget");
        expect(widget.map((s) => s.cwd).sort(), db).toEqual(
          [join(homeA, "src/widget"), join(homeB, "code/widget-app")].sort(),
        );
        expect(sessions.find((s) => s.cwd.includes("streaming"))?.project, db).toBe("streaming");
        const listed = JSON.parse(
          ok(cairn(["sessions", "--json", "--all", "--project", "widget", "--db", db], { env })),
        );
        expect(listed.map((s: { session_id: string }) => s.session_id).sort(), db).toEqual(
          widget.map((s) => s.session_id).sort(),
        );
        const hits = JSON.parse(
          ok(cairn(["search", "--json", "--mode", "lexical", "--limit", "500", "project:widget", "--db", db], { env })),
        ).hits as Array<{ session_id: string }>;
        expect(new Set(hits.map((h) => h.session_id)), db).toEqual(new Set(widget.map((s) => s.session_id)));
        const threads = JSON.parse(
          ok(cairn(["threads", "--json", "--all", "--project", "widget", "--db", db], { env })),
        );
        const inThreads = new Set(
          (threads.threads ?? threads).flatMap((t: { sessions: Array<{ session_id: string }> }) =>
            t.sessions.map((s) => s.session_id),
          ),
        );
        for (const s of widget) expect(inThreads.has(s.session_id), db).toBe(true);
      }
      // The key is recorded where a team reads it.
      expect(pg.psql("SELECT DISTINCT meta::jsonb->>'repo' FROM sessions WHERE project = 'widget'")).toBe(
        "github.com/acme/widget",
      );
    }, 300_000);
  },
  600_000,
);
