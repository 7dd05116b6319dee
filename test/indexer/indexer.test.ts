import {
  appendFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { indexFile, indexPaths } from "../../src/indexer/indexer.ts";
import { dumpIndex, firstDifference } from "../helpers/db-dump.ts";
import { withStore } from "../helpers/temp-index.ts";
import { realFixture, realFixturesDir } from "../helpers/transcripts.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-idx-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = () => {
  const d = join(dir, String(n++));
  mkdirSync(d, { recursive: true });
  return d;
};

const CLAUDE = realFixture("claude/episodic-memory__large-conversation.jsonl");
const lines = readFileSync(CLAUDE, "utf8")
  .split("\n")
  .filter((l) => l.length > 0);

describe("incremental indexing", () => {
  it("a grown file: only the new lines are read, earlier events keep their ids, the result equals a clean index", () => {
    const d = fresh();
    const file = join(d, "0fae0449-64d3-4788-8622-d3a47d82c14b.jsonl");
    writeFileSync(file, `${lines.slice(0, 200).join("\n")}\n`);
    const db = join(d, "a.db");
    const first = withStore(db, (s) => indexFile(s, file));
    expect(first.outcome).toBe("new");
    const before = withStore(db, (s) => s.sessionEvents("0fae0449-64d3-4788-8622-d3a47d82c14b").map((e) => e.event_id));
    appendFileSync(file, `${lines.slice(200).join("\n")}\n`);
    const second = withStore(db, (s) => indexFile(s, file));
    expect(second.outcome).toBe("appended");
    expect(second.bytes).toBe(Buffer.byteLength(`${lines.slice(200).join("\n")}\n`));
    const after = withStore(db, (s) => s.sessionEvents("0fae0449-64d3-4788-8622-d3a47d82c14b").map((e) => e.event_id));
    expect(after.slice(0, before.length)).toEqual(before);
    // A clean index of the whole file gives the same database.
    const clean = join(d, "clean.db");
    const d2 = fresh();
    const same = join(d2, "0fae0449-64d3-4788-8622-d3a47d82c14b.jsonl");
    cpSync(file, same);
    withStore(clean, (s) => indexFile(s, same));
    expect(firstDifference(dumpIndex(db).replaceAll(file, "F"), dumpIndex(clean).replaceAll(same, "F"))).toBeNull();
  });

  it("a half-written last line waits for the rest of it", () => {
    const d = fresh();
    const file = join(d, "s.jsonl");
    const db = join(d, "a.db");
    const last = lines[10]!;
    writeFileSync(file, `${lines.slice(0, 10).join("\n")}\n${last.slice(0, 50)}`);
    withStore(db, (s) => indexFile(s, file));
    const count1 = withStore(db, (s) => s.counts().events);
    expect(withStore(db, (s) => s.problems())).toEqual([]);
    appendFileSync(file, `${last.slice(50)}\n`);
    expect(withStore(db, (s) => indexFile(s, file)).outcome).toBe("appended");
    expect(withStore(db, (s) => s.counts().events)).toBeGreaterThan(count1);
    expect(withStore(db, (s) => s.problems())).toEqual([]);
  });

  it("an unchanged file costs one stat; indexing twice changes nothing", () => {
    const d = fresh();
    cpSync(realFixturesDir(), join(d, "t"), { recursive: true });
    const db = join(d, "a.db");
    withStore(db, (s) => indexPaths({ store: s, paths: [join(d, "t")] }));
    const dump = dumpIndex(db);
    const again = withStore(db, (s) => indexPaths({ store: s, paths: [join(d, "t")] }));
    expect(again).toMatchObject({ files: 8, changed: 0, unchanged: 8, events: 0, bytes: 0 });
    expect(firstDifference(dumpIndex(db), dump)).toBeNull();
  });

  it("a rewritten or truncated file is read again from the start, and what it no longer says is gone", () => {
    const d = fresh();
    const file = join(d, "s.jsonl");
    const db = join(d, "a.db");
    writeFileSync(file, readFileSync(CLAUDE));
    withStore(db, (s) => indexFile(s, file));
    const total = withStore(db, (s) => s.counts().events);
    truncateSync(file, Buffer.byteLength(`${lines.slice(0, 50).join("\n")}\n`));
    expect(withStore(db, (s) => indexFile(s, file)).outcome).toBe("rewritten");
    const truncated = withStore(db, (s) => s.counts().events);
    expect(truncated).toBeLessThan(total);
    // same size, different bytes at the start: noticed by the head hash
    const pi = readFileSync(realFixture("pi/pi-mono__large-session.jsonl"), "utf8");
    writeFileSync(file, pi);
    expect(withStore(db, (s) => indexFile(s, file)).outcome).toBe("rewritten");
    const sessions = withStore(db, (s) => s.listSessions({}).map((x) => x.provider));
    expect(sessions).toEqual(["pi"]);
    const clean = join(d, "clean.db");
    withStore(clean, (s) => indexFile(s, file));
    expect(firstDifference(dumpIndex(db), dumpIndex(clean))).toBeNull();
  });

  it("a deleted file is an error-free no-op; its events stay in the index", () => {
    const d = fresh();
    const file = join(d, "s.jsonl");
    const db = join(d, "a.db");
    writeFileSync(file, readFileSync(CLAUDE));
    withStore(db, (s) => indexPaths({ store: s, paths: [d] }));
    unlinkSync(file);
    const r = withStore(db, (s) => indexPaths({ store: s, paths: [d] }));
    expect(r.errors).toEqual([]);
    expect(withStore(db, (s) => s.counts().events)).toBeGreaterThan(0);
  });

  it("problems are stored with file and line; an unrecognised file is one problem", () => {
    const d = fresh();
    writeFileSync(join(d, "bad.jsonl"), `${lines[0]}\n{oops\n${lines[1]}\n`);
    writeFileSync(join(d, "notes.jsonl"), "just words\n");
    const db = join(d, "a.db");
    const r = withStore(db, (s) => indexPaths({ store: s, paths: [d] }));
    expect(r.problems).toBe(2);
    expect(withStore(db, (s) => s.problems())).toEqual([
      expect.objectContaining({
        source_file: join(d, "bad.jsonl"),
        source_line: 2,
        reason: expect.stringMatching(/invalid JSON/),
      }),
      expect.objectContaining({
        source_file: join(d, "notes.jsonl"),
        source_line: 1,
        reason: "not a transcript of any agent cairn reads",
      }),
    ]);
  });

  it("store reads rebuild the implicit edges (next, parent, calls, result, derived_from)", () => {
    const d = fresh();
    const db = join(d, "a.db");
    withStore(db, (s) =>
      indexFile(
        s,
        realFixture("codex/agtrace__rollout-2025-12-10T04-55-16-019b04ae-b1c6-7c72-a134-a4c2de66058c.jsonl"),
      ),
    );
    withStore(db, (s) => {
      const events = s.sessionEvents("019b04ae-b1c6-7c72-a134-a4c2de66058c");
      const err = events.find((e) => e.event_type === "error")!;
      const result = s.getEvent(err.parent_event_id!)!;
      expect(result.event_type).toBe("tool_result");
      expect(s.edgesFrom(err.event_id)).toContainEqual(
        expect.objectContaining({ dst: result.event_id, edge_type: "derived_from" }),
      );
      expect(s.edgesTo(result.event_id)).toContainEqual(
        expect.objectContaining({ src: result.parent_event_id, edge_type: "result" }),
      );
      expect(s.edgesFrom(result.event_id)).toContainEqual(
        expect.objectContaining({ edge_type: "fails_with", dst: expect.stringMatching(/^error_signature:/) }),
      );
      const primaries = events.filter(
        (e) =>
          !["file_action", "command", "test_result", "decision", "outcome"].includes(e.event_type) &&
          s.getEvent(e.parent_event_id ?? "")?.event_type !== "tool_result",
      );
      const nexts = primaries.flatMap((e) => s.edgesFrom(e.event_id).filter((x) => x.edge_type === "next"));
      expect(nexts).toHaveLength(primaries.length - 1);
    });
  });
});

describe("parse worker", () => {
  it("indexing with parsing on a worker thread gives exactly the database of the single-thread indexer", () => {
    const d = fresh();
    const root = join(d, "root");
    cpSync(realFixturesDir(), root, { recursive: true });
    // An unrecognised file and an empty one go through the worker too.
    writeFileSync(join(root, "notes.jsonl"), '{"hello":"world"}\n');
    writeFileSync(join(root, "empty.jsonl"), "");
    const a = join(d, "threaded.db");
    const b = join(d, "single.db");
    // Small chunks: every large fixture crosses many chunk boundaries on the worker.
    const threaded = withStore(a, (s) =>
      indexPaths({ store: s, paths: [root], parallel: true, chunkBytes: 64 * 1024 }),
    );
    const single = withStore(b, (s) => indexPaths({ store: s, paths: [root], parallel: false }));
    expect(threaded.events).toBeGreaterThan(1000);
    expect({ ...threaded, ms: 0 }).toEqual({ ...single, ms: 0 });
    expect(firstDifference(dumpIndex(a), dumpIndex(b))).toBeNull();
  });
});
