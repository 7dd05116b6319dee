/**
 * The index's bookkeeping through the real CLI: a file rewritten in place that keeps its head and grows, deleted
 * and moved transcripts (kept and marked, carried over, pruned), the overview's count of new events, and bytes
 * that are not UTF-8.
 */
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { cairn } from "../helpers/cli.ts";
import { dumpIndex, firstDifference } from "../helpers/db-dump.ts";
import { realFixture } from "../helpers/transcripts.ts";
import { freshEnv } from "./fresh-machine.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-books-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = freshEnv(dir);
let n = 0;
const fresh = () => {
  const d = join(dir, String(n++));
  mkdirSync(join(d, "root"), { recursive: true });
  return { root: join(d, "root"), db: join(d, "c.db"), clean: join(d, "clean.db") };
};

function json(args: string[]): Record<string, unknown> {
  const res = cairn([...args, "--json"], { env });
  expect(res.code, res.stderr).toBe(0);
  return JSON.parse(res.stdout) as Record<string, unknown>;
}

function sourcePaths(db: string): string[] {
  const d = new Database(db, { readonly: true });
  try {
    return d.prepare("SELECT path FROM source_files ORDER BY path").pluck().all() as string[];
  } finally {
    d.close();
  }
}

const CLAUDE = realFixture("claude/episodic-memory__large-conversation.jsonl");
const CLAUDE_ID = "0fae0449-64d3-4788-8622-d3a47d82c14b";
const lines = readFileSync(CLAUDE, "utf8").split("\n").filter(Boolean);

describe("a file rewritten in place", () => {
  it("keeping its first 4 KiB and growing is read again, not taken for an append", () => {
    const { root, db, clean } = fresh();
    const file = join(root, `${CLAUDE_ID}.jsonl`);
    writeFileSync(file, `${lines.slice(0, 120).join("\n")}\n`);
    expect(json(["index", "--root", root, "--db", db]).changed).toBe(1);
    // The same file, rewritten where it stands (same inode): a line well past the first 4 KiB is dropped, and the
    // file grows past its old size, so head, inode and size all look like an append.
    const rewritten = [...lines.slice(0, 60), ...lines.slice(61, 200)];
    expect(Buffer.byteLength(lines.slice(0, 60).join("\n"))).toBeGreaterThan(4096);
    writeFileSync(file, `${rewritten.join("\n")}\n`);
    const second = json(["index", "--root", root, "--db", db]);
    expect(second.rewritten).toBe(1);
    expect(json(["index", "--root", root, "--db", clean]).changed).toBe(1);
    expect(firstDifference(dumpIndex(db), dumpIndex(clean))).toBeNull();
  });
});

describe("deleted and moved transcripts", () => {
  it("a deleted transcript's sessions stay, marked source gone in sessions, timeline and search; prune forgets them", () => {
    const { root, db } = fresh();
    const gone = join(root, `${CLAUDE_ID}.jsonl`);
    copyFileSync(CLAUDE, gone);
    copyFileSync(realFixture("pi/pi-mono__large-session.jsonl"), join(root, "pi-session.jsonl"));
    json(["index", "--root", root, "--db", db]);
    unlinkSync(gone);
    const after = json(["index", "--root", root, "--db", db]);
    expect(after.gone).toBe(1);

    const sessions = json(["sessions", "--all", "--db", db]) as unknown as Array<Record<string, unknown>>;
    const byId = new Map(sessions.map((s) => [s["session_id"], s]));
    expect(byId.get(CLAUDE_ID)?.["source_gone"]).toBe(true);
    expect(sessions.filter((s) => s["source_gone"] === true)).toHaveLength(1);
    // The session's headline (its title) says so; its id is on the line under it.
    expect(cairn(["sessions", "--db", db], { env }).stdout).toMatch(new RegExp(`source gone\n\\s+${CLAUDE_ID}`));

    const timeline = json(["timeline", CLAUDE_ID.slice(0, 8), "--db", db]) as { session: { source_gone: boolean } };
    expect(timeline.session.source_gone).toBe(true);
    expect(cairn(["timeline", CLAUDE_ID.slice(0, 8), "--db", db], { env }).stdout).toContain("source gone:");

    const hits = (
      json(["search", "session:0fae0449 error", "--mode", "lexical", "--db", db]) as {
        hits: Array<{ session_id: string; source_gone: boolean }>;
      }
    ).hits;
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h) => h.source_gone)).toBe(true);

    expect((json(["prune", "--dry-run", "--db", db]) as { files: unknown[] }).files).toHaveLength(1);
    const pruned = json(["prune", "--db", db]);
    expect(pruned).toMatchObject({ files: 1, sessions: expect.any(Number) });
    expect((json(["sessions", "--all", "--db", db]) as unknown as unknown[]).length).toBe(
      sessions.length - (pruned.sessions as number),
    );
    expect(sourcePaths(db)).toEqual([join(root, "pi-session.jsonl")]);
  });

  it("a moved transcript (renamed, or copied then deleted) is carried to its new path, leaving no old row", () => {
    const { root, db, clean } = fresh();
    const a = join(root, `${CLAUDE_ID}.jsonl`);
    const b = join(root, "pi-session.jsonl");
    copyFileSync(CLAUDE, a);
    copyFileSync(realFixture("pi/pi-mono__large-session.jsonl"), b);
    json(["index", "--root", root, "--db", db]);
    mkdirSync(join(root, "archive"));
    renameSync(a, join(root, "archive", `${CLAUDE_ID}.jsonl`));
    cpSync(b, join(root, "archive", "pi-session.jsonl"));
    unlinkSync(b);
    const after = json(["index", "--root", root, "--db", db]);
    expect(after).toMatchObject({ moved: 2, gone: 0, changed: 0 });
    expect(sourcePaths(db)).toEqual([
      join(root, "archive", `${CLAUDE_ID}.jsonl`),
      join(root, "archive", "pi-session.jsonl"),
    ]);
    const sessions = json(["sessions", "--all", "--db", db]) as unknown as Array<{ source_gone: boolean }>;
    expect(sessions.some((s) => s.source_gone)).toBe(false);
    json(["index", "--root", root, "--db", clean]);
    expect(firstDifference(dumpIndex(db), dumpIndex(clean))).toBeNull();
  });
});

describe("what a run reports", () => {
  it("the overview's +N new events is what the index grew by", () => {
    const { root, db } = fresh();
    // Claude Code writes one API message over several lines: re-stated events are updates, not new ones.
    copyFileSync(CLAUDE, join(root, `${CLAUDE_ID}.jsonl`));
    copyFileSync(realFixture("claude/codemie__session-624a4a58.jsonl"), join(root, "624a4a58.jsonl"));
    const first = json(["--root", root, "--db", db]) as { indexed: { events: number }; events: number };
    expect(first.indexed.events).toBe(first.events);
    const text = cairn(["--root", root, "--db", db], { env }).stdout;
    expect(text).toMatch(/, \+0 new events/);
  });

  it("bytes that are not UTF-8 inside a JSON string are a problem with file and line, and the line is still read", () => {
    const { root, db } = fresh();
    const file = join(root, "pi-bad-bytes.jsonl");
    const session = `${JSON.stringify({ type: "session", version: 3, id: "bad-bytes", timestamp: "2026-01-01T00:00:00Z", cwd: "/w" })}\n`;
    const message = (id: string, text: Buffer) =>
      Buffer.concat([
        Buffer.from(
          `{"type":"message","id":"${id}","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"`,
        ),
        text,
        Buffer.from('"}}\n'),
      ]);
    writeFileSync(
      file,
      Buffer.concat([
        Buffer.from(session),
        message("m1", Buffer.from("fine text")),
        message("m2", Buffer.from([0x62, 0x61, 0x64, 0x20, 0xff, 0xfe, 0x20, 0x62, 0x79, 0x74, 0x65, 0x73])),
      ]),
    );
    const res = json(["index", "--root", root, "--db", db]) as {
      problems: number;
      problem_lines: Array<{ source_file: string; source_line: number; reason: string }>;
    };
    expect(res.problems).toBe(1);
    expect(res.problem_lines).toEqual([
      expect.objectContaining({ source_file: file, source_line: 3, reason: expect.stringMatching(/invalid UTF-8/) }),
    ]);
    const hits = (json(["search", "bytes", "--mode", "lexical", "--db", db]) as { hits: Array<{ snippet: string }> })
      .hits;
    expect(hits.map((h) => h.snippet).join(" ")).toContain("\ufffd");
  });
});
