/**
 * Bad input is data: never an exception, never a silent drop. Every unusable line is a problem with its file and
 * line; well-formed records of unknown types are reported once per type and keep their text in the session's meta.
 */

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { inspectPaths } from "../../src/indexer/inspect.ts";
import { linesOf } from "../../src/readers/lines.ts";
import type { SourceLine } from "../../src/readers/types.ts";
import { jsonl, parseLines, parseText, realFixtures } from "../helpers/transcripts.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-bad-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const claudeUser = (uuid: string, text: string) => ({
  type: "user",
  uuid,
  parentUuid: null,
  sessionId: "11111111-2222-3333-4444-555555555555",
  cwd: "/w",
  timestamp: "2026-01-01T00:00:00Z",
  message: { role: "user", content: text },
});

describe("bad lines", () => {
  const file = "/x/.claude/projects/-w/11111111-2222-3333-4444-555555555555.jsonl";
  const good = JSON.stringify(claudeUser("u1", "hello"));
  const cases: Array<[string, string, RegExp]> = [
    ["truncated line", good.slice(0, 40), /invalid JSON/],
    ["invalid JSON", "{not json}", /invalid JSON/],
    ["a JSON array", "[1,2,3]", /expected a JSON object, got an array/],
    ["a JSON string", '"just text"', /expected a JSON object, got a string/],
    ["binary garbage", "\u0000\u0001\u0002\u00ff\ufffd\ufffd\u0007\u0008garbage\u0000\u0000", /binary/],
    [
      "unknown record type",
      JSON.stringify({ type: "hologram", uuid: "h1", sessionId: "s", content: "kept text" }),
      /unknown record type 'hologram'/,
    ],
    ["record without a type", JSON.stringify({ uuid: "n1", sessionId: "s" }), /record without a type/],
  ];
  for (const [name, bad, reason] of cases) {
    it(`${name}: reported with its line, the rest still read`, () => {
      const text = `${good}\n${bad}\n${JSON.stringify(claudeUser("u2", "after"))}\n`;
      const p = parseText(file, text);
      expect(p.problems).toHaveLength(1);
      expect(p.problems[0]).toMatchObject({ source_file: file, source_line: 2 });
      expect(p.problems[0]!.reason).toMatch(reason);
      expect(p.events.filter((e) => e.event_type === "user_message").map((e) => e.text)).toEqual(["hello", "after"]);
      // an unknown record's text is kept in the session's meta, never as a message or a tool result
      expect(p.events.filter((e) => e.meta["harness"] === true)).toEqual([]);
      if (name === "unknown record type")
        expect(p.sessions[0]!.meta["unknown_records"]).toEqual({ hologram: { line: 2, text: "kept text" } });
    });
  }

  it("missing fields do not throw and keep what is there", () => {
    const text = jsonl(
      { type: "assistant", sessionId: "s" },
      { type: "user", sessionId: "s", message: {} },
      { type: "user", sessionId: "s", message: { content: [{ type: "tool_result" }] } },
      { type: "system", sessionId: "s" },
      { type: "assistant", message: { content: [{ type: "tool_use" }] } },
    );
    const p = parseText(file, text);
    expect(p.problems).toEqual([]);
    expect(p.events.some((e) => e.event_type === "tool_call" && e.tool_name === "unknown")).toBe(true);
  });

  it("half-written last line waits in the indexer's mode and is reported by inspect", () => {
    const path = join(dir, "half.jsonl");
    writeFileSync(path, `${good}\n${good.slice(0, 30)}`);
    const res = inspectPaths([path], dir);
    expect(res.events.filter((e) => e.event_type === "user_message")).toHaveLength(1);
    expect(res.problems).toEqual([
      expect.objectContaining({
        source_file: path,
        source_line: 2,
        reason: expect.stringMatching(/incomplete last line/),
      }),
    ]);
    // a complete last line without a newline is read
    writeFileSync(path, `${good}\n${JSON.stringify(claudeUser("u3", "no newline"))}`);
    const res2 = inspectPaths([path], dir);
    expect(res2.events.map((e) => e.text)).toContain("no newline");
    expect(res2.problems).toEqual([]);
  });

  it("a 100 MB line is read (its text clipped), not a crash; a 100 MB garbage line is one problem", () => {
    const path = join(dir, "huge.jsonl");
    const big = "x".repeat(100 * 1024 * 1024);
    const rec = {
      type: "message",
      id: "a1",
      parentId: null,
      timestamp: "2026-01-01T00:00:00Z",
      message: { role: "user", content: big },
    };
    writeFileSync(
      path,
      `${JSON.stringify({ type: "session", version: 3, id: "p1", cwd: "/w" })}\n${JSON.stringify(rec)}\n{${big}\n${JSON.stringify({ ...rec, id: "a2", message: { role: "user", content: "small" } })}\n`,
    );
    const res = inspectPaths([path], dir);
    const users = res.events.filter((e) => e.event_type === "user_message");
    // The 100 MB message is kept as its head and tail with a marker (the transcript keeps it whole).
    expect(users.map((e) => e.text.length > 1_000_000 && e.text.length < 2_000_000)).toEqual([true, false]);
    expect(users[0]?.text).toContain(
      "MiB of this text are left out of cairn's index; the transcript has it whole, line 2",
    );
    expect(users[1]?.text).toBe("small");
    expect(res.problems).toHaveLength(1);
    expect(res.problems[0]).toMatchObject({ source_line: 3 });
  }, 300_000); // a stress test, not a speed test: on a busy shared machine it takes minutes

  it("a file that is no transcript at all is one problem", () => {
    const path = join(dir, "notes.jsonl");
    writeFileSync(path, "hello world\nnot json either\n");
    const res = inspectPaths([path], dir);
    expect(res.sessions).toEqual([]);
    expect(res.problems).toEqual([
      expect.objectContaining({
        source_file: path,
        reason: expect.stringMatching(/not a transcript of any agent cairn reads/),
      }),
    ]);
  });
});

/** Mutations of real lines: truncation, byte flips, deleted keys, swapped types, junk insertion. */
function mutate(line: string, kind: number, at: number, junk: string): string {
  const pos = line.length === 0 ? 0 : at % line.length;
  switch (kind) {
    case 0:
      return line.slice(0, pos);
    case 1:
      return line.slice(0, pos) + junk + line.slice(pos);
    case 2:
      return line.slice(0, pos) + String.fromCharCode((line.charCodeAt(pos) + 1) % 0xffff) + line.slice(pos + 1);
    case 3: {
      try {
        const o = JSON.parse(line) as Record<string, unknown>;
        const keys = Object.keys(o);
        if (keys.length > 0) delete o[keys[pos % keys.length]!];
        return JSON.stringify(o);
      } catch {
        return line;
      }
    }
    case 4:
      return line.replace(/"type":"[a-z_]+"/, `"type":"${junk.replace(/[^a-z_]/g, "") || "x"}"`);
    default:
      return line.replace(/"(message|payload|content)":/, '"$1":null,"_":');
  }
}

describe("property: random and mutated real lines never throw", () => {
  const pools = realFixtures().map((f) => ({ file: f, lines: linesOf(readFileSync(f, "utf8")).map((l) => l.text) }));

  it("and every unparseable line is reported", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: pools.length - 1 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 6 }), fc.nat(), fc.string({ maxLength: 12 })), {
          minLength: 1,
          maxLength: 25,
        }),
        fc.array(fc.integer({ min: 1, max: 30 }), { maxLength: 3 }),
        (poolIdx, picks, cuts) => {
          const pool = pools[poolIdx]!;
          const lines: SourceLine[] = picks.map(([i, kind, at, junk], n) => {
            const src = pool.lines[i % pool.lines.length]!;
            return { text: kind === 6 ? junk : mutate(src, kind, at, junk), line: n + 1 };
          });
          const parsed = parseLines(
            pool.file,
            [{ text: pool.lines[0]!, line: 0 }, ...lines].map((l, n) => ({ ...l, line: n + 1 })),
            cuts,
          );
          for (const [n, l] of lines.entries()) {
            let ok = true;
            try {
              const v = JSON.parse(l.text) as unknown;
              ok = typeof v === "object" && v !== null && !Array.isArray(v);
            } catch {
              ok = l.text.trim() === "";
            }
            if (!ok) expect(parsed.problems.some((p) => p.source_line === n + 2)).toBe(true);
          }
        },
      ),
      { numRuns: 300, seed: 7 },
    );
  });
});
