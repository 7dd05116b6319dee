/**
 * The line clipper that keeps a very long string's head and tail (issue 12): whatever the pieces a line arrives in,
 * a line with no string over the limit comes out byte for byte, escapes split across pieces included; a longer
 * string keeps its first and last bytes, cut between log lines and never inside a character or an escape, with a
 * marker naming the line; invalid UTF-8 in what is kept is reported.
 */
import { describe, expect, it } from "vitest";
import { CLIP_STRING_BYTES, KEEP_BYTES, LineClipper } from "../../src/readers/long-strings.ts";

function clip(line: Buffer, pieces: number[], lineNo = 7): { text: string; utf8: boolean; kept: number } {
  const c = new LineClipper(lineNo);
  let at = 0;
  for (const n of pieces) {
    c.push(line.subarray(at, Math.min(line.length, at + n)));
    at += n;
  }
  if (at < line.length) c.push(line.subarray(at));
  return { ...c.finish(), kept: c.keptBytes };
}

describe("LineClipper", () => {
  it("gives back a line without long strings exactly, however it is cut into pieces", () => {
    const value = { a: 'quote " and backslash \\ and \\" mixed', b: ["x\\\\", '"', "é€😀"], c: { d: 1.5, e: null } };
    const line = Buffer.from(JSON.stringify(value));
    for (let size = 1; size <= 7; size++) {
      const out = clip(
        line,
        Array.from({ length: line.length }, () => size),
      );
      expect(out.text).toBe(line.toString("utf8"));
      expect(out.utf8).toBe(true);
    }
  });

  it("keeps a long string's head and tail, cut between its lines, with a marker naming the line", () => {
    const rows: string[] = [];
    for (let i = 0; rows.length * 40 < CLIP_STRING_BYTES * 1.5; i++)
      rows.push(`[${String(i).padStart(6, "0")}] build step "ok" é`);
    const text = `${rows.join("\n")}\n`;
    const line = Buffer.from(JSON.stringify({ type: "tool", output: text, after: "kept" }));
    const out = clip(
      line,
      Array.from({ length: 40 }, () => 123_457),
    );
    const value = JSON.parse(out.text) as { output: string; after: string };
    expect(value.after).toBe("kept");
    expect(value.output.startsWith("[000000] build step")).toBe(true);
    expect(value.output.endsWith(`${rows.at(-1)}\n`)).toBe(true);
    expect(value.output).toMatch(
      /\[… [\d.]+ MiB of this text are left out of cairn's index; .* line 7: cairn show <id> --source …\]/,
    );
    // Cut where a row ends: every row kept is whole.
    const kept = value.output.split("\n").filter((r) => /^\[\d/.test(r));
    for (const r of kept) expect(r).toMatch(/^\[\d{6}\] build step "ok" é$/);
    expect(value.output.length).toBeLessThan(3 * KEEP_BYTES);
    expect(out.kept).toBeLessThan(4 * KEEP_BYTES);
    expect(out.utf8).toBe(true);
  });

  it("says so when what it keeps is not UTF-8", () => {
    const line = Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    expect(clip(line, [3]).utf8).toBe(false);
  });

  it("leaves an unterminated string for the JSON parser to report", () => {
    const out = clip(Buffer.from('{"a":"never ends'), [4]);
    expect(() => JSON.parse(out.text)).toThrow();
    expect(out.text).toBe('{"a":"never ends');
  });
});
