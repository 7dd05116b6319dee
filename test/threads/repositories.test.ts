/**
 * Threads across repositories: generic error text shared by two projects joins nothing; an error that names a
 * project file or test does. Every thread says in words what it shares.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { listThreads } from "../../src/threads/list.ts";
import { sameRepository } from "../../src/threads/specific.ts";
import type { WorkUnit } from "../../src/threads/units.ts";
import { realFixturesDir } from "../helpers/transcripts.ts";
import { buildHistoryIndex } from "../web/helpers/history-index.ts";
import { indexWork, sid, Work, type WorkIndex, writeWork } from "./work.ts";

let open: WorkIndex | null = null;
afterEach(() => {
  open?.close();
  open = null;
});
const index = (...work: Work[]) => {
  open = indexWork(...work);
  return open;
};
const at = (h: number) => new Date(Date.UTC(2026, 0, 1, h)).toISOString();
const joined = (w: WorkIndex) => listThreads(w.store).threads.map((t) => t.sessions.map((s) => s.session_id).sort());

/** Errors any project can hit: a missing package, a rejected push, an edit tool's mismatch message, npm's own. */
const failGenerically = (w: Work) =>
  w
    .run("node server.js", "Error: Cannot find module 'zod'", 1)
    .run("git push", "error: failed to push some refs to 'origin'", 1)
    .run(
      "edit",
      "Could not find oldString in the file. It must match exactly, including whitespace, indentation, and line endings.",
      1,
    )
    .run("npm install", "npm error code ERESOLVE", 1)
    .run("npx tsc", "error TS2307", 2);

/** A Kilo-like and an OpenCode-like project (different repositories) that hit the same generic errors. */
const genericPair = () => [
  failGenerically(new Work("claude", sid("kilo-app"), { start: at(1), cwd: "/w/kilo-app" }).prompt("start the server")),
  failGenerically(new Work("pi", sid("opencode-app"), { start: at(2), cwd: "/w/opencode-app" }).prompt("deploy it")),
];

describe("threads across repositories", () => {
  it("generic error text shared by two repositories is no thread", () => {
    expect(joined(index(...genericPair()))).toEqual([]);
  });

  it("the same errors inside one repository still join, without the generic ones", () => {
    const w = index(
      failGenerically(new Work("claude", sid("a"), { start: at(1), cwd: "/w/app" }).prompt("start the server")),
      failGenerically(new Work("codex", sid("b"), { start: at(2), cwd: "/w/app/server" }).prompt("carry on")),
    );
    expect(joined(w)).toEqual([[sid("a"), sid("b")]]);
    const t = listThreads(w.store).threads[0]!;
    expect(t.shared.map((e) => e.display)).toEqual([
      "Error: Cannot find module 'zod'",
      "error: failed to push some refs to 'origin'",
    ]);
    expect(t.shares).toBe(
      "shares the errors `Error: Cannot find module 'zod'` and `error: failed to push some refs to 'origin'`",
    );
  });

  it("a type error in a project file and a failing test join repositories, and the thread says so", () => {
    const specific = (w: Work) =>
      w
        .run("npx tsc", "src/db.ts(3,1): error TS2307: Cannot find module './pool'.", 2)
        .run("npx vitest run", " FAIL  src/add.test.ts > adds two numbers\n", 1);
    const w = index(
      specific(new Work("claude", sid("lib"), { start: at(1), cwd: "/w/lib" }).prompt("fix the db import")),
      specific(new Work("pi", sid("app"), { start: at(2), cwd: "/w/app" }).prompt("same failure here")),
    );
    expect(joined(w)).toEqual([[sid("app"), sid("lib")]]);
    expect(listThreads(w.store).threads[0]!.shares).toBe(
      "shares the failing test `add.test.ts > adds two numbers` and the error `src/db.ts(3,1): error TS2307: Cannot find module './pool'.`",
    );
  });

  it("files of one of the two repositories join them; files outside both do not", () => {
    const outside = ["/srv/shared/tools/lint-rules.ts", "/srv/shared/tools/format-rules.ts"];
    const library = ["/w/lib/src/db.ts", "/w/lib/src/pool.ts"];
    const w = index(
      new Work("claude", sid("one"), { start: at(1), cwd: "/w/one" }).prompt("lint").read(...outside),
      new Work("pi", sid("two"), { start: at(2), cwd: "/w/two" }).prompt("lint too").read(...outside),
      new Work("claude", sid("lib"), { start: at(3), cwd: "/w/lib" }).prompt("pool").edit(...library),
      new Work("codex", sid("app"), { start: at(4), cwd: "/w/app" }).prompt("why the pool").read(...library),
    );
    expect(joined(w)).toEqual([[sid("app"), sid("lib")]]);
    expect(listThreads(w.store).threads[0]!.shares).toBe("shares the files `src/db.ts` and `src/pool.ts`");
  });

  it("a remote recorded for both sessions decides the repository over the folder", () => {
    const unit = (cwd: string, repository: string | null) => ({ root: { cwd, repository } }) as unknown as WorkUnit;
    expect(
      sameRepository(unit("/a/shop", "git@github.com:o/shop.git"), unit("/b/x", "https://github.com/o/shop")),
    ).toBe(true);
    expect(sameRepository(unit("/w/app", "git@github.com:o/a.git"), unit("/w/app", "git@github.com:o/b.git"))).toBe(
      false,
    );
    expect(sameRepository(unit("/w/app", null), unit("/w/app/pkg", null))).toBe(true);
    expect(sameRepository(unit("/w/app", null), unit("/w/api", null))).toBe(false);
  });
});

describe("threads of the real fixtures", () => {
  it("the cross-agent pair is a thread, the generic pair is not, and every thread says what it shares", async () => {
    const extra = mkdtempSync(join(tmpdir(), "cairn-threads-generic-"));
    writeWork(extra, ...genericPair());
    const history = await buildHistoryIndex([realFixturesDir(), extra]);
    try {
      const { threads } = await history.app.threads({ include_single: true });
      const withSession = (id: string) => threads.find((t) => t.sessions.some((s) => s.session_id === id))!;
      const pair = withSession(sid("web-claude"));
      expect(pair.sessions.map((s) => s.session_id)).toContain(sid("web-codex"));
      expect(pair.shares).toMatch(/^shares the files `src\/cart\/tax-rules\.ts` and `src\/cart\/total\.ts`/);
      expect(withSession(sid("kilo-app")).sessions).toHaveLength(1);
      expect(withSession(sid("opencode-app")).sessions).toHaveLength(1);
      for (const t of threads) expect(t.shares, t.thread_id).toMatch(/^(shares|joined|a forked) \S.*\S$/);
      expect(threads.filter((t) => /`\s*`|shares\s*$/.test(t.shares))).toEqual([]);
    } finally {
      history.close();
      rmSync(extra, { recursive: true, force: true });
    }
  }, 120_000);
});
