import { mkdtempSync, renameSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readContextFile } from "../../src/indexer/context-files.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-context-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a file beside transcripts, read once for all of them", () => {
  const file = join(dir, "sessions.json");

  it("gives the file's text again while it is unchanged, and its new text once it changes", () => {
    writeFileSync(file, '[{"sessionId":"a"}]');
    expect(readContextFile(file)).toBe('[{"sessionId":"a"}]');
    expect(readContextFile(file)).toBe('[{"sessionId":"a"}]');
    // Same size, rewritten in place: its time tells.
    const later = new Date(Date.now() + 5000);
    writeFileSync(file, '[{"sessionId":"b"}]');
    utimesSync(file, later, later);
    expect(readContextFile(file)).toBe('[{"sessionId":"b"}]');
    // Same size and time, replaced by another file (an agent writing a temporary file and renaming it): its inode.
    const other = join(dir, "next.json");
    writeFileSync(other, '[{"sessionId":"c"}]');
    utimesSync(other, later, later);
    renameSync(other, file);
    expect(readContextFile(file)).toBe('[{"sessionId":"c"}]');
  });

  it("gives bytes as latin1 apart from text, and nothing once the file is gone", () => {
    writeFileSync(file, "é");
    expect(readContextFile(file)).toBe("é");
    expect(readContextFile(file, true)).toBe("\u00c3\u00a9");
    rmSync(file);
    expect(readContextFile(file)).toBeNull();
  });
});
