/**
 * A very long line (a tool result the size of a build log) is read whole with memory bounded by a small multiple
 * of its size: its chunks are not copied over and over. Measured in a child process by its peak RSS beyond what
 * it held before reading. (Time is measured in `npm run bench -- long-line`, never here.)
 */
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { REPO } from "../helpers/transcripts.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-long-line-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const MB = 1024 * 1024;

/** A pi session whose second line is a tool result of about `mb` MiB of log text (with escaped newlines). */
function writeSession(path: string, mb: number): number {
  const fd = openSync(path, "w");
  writeSync(
    fd,
    `${JSON.stringify({ type: "session", version: 3, id: "long", timestamp: "2026-01-01T00:00:00Z", cwd: "/w" })}\n`,
  );
  const head = `{"type":"message","id":"m1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"`;
  writeSync(fd, head);
  const block = Buffer.from(JSON.stringify(`${"ok  src/module.ts compiled in 12 ms\n".repeat(4096)}`).slice(1, -1));
  let line = head.length;
  while (line + block.length < mb * MB) line += writeSync(fd, block);
  line += writeSync(fd, `"}],"isError":false}}\n`);
  writeSync(
    fd,
    `{"type":"message","id":"m2","parentId":"m1","timestamp":"2026-01-01T00:00:02Z","message":{"role":"user","content":"after"}}\n`,
  );
  closeSync(fd);
  return line;
}

describe("a very long line", () => {
  it("is read whole, with peak memory under three times its size", () => {
    const path = join(dir, "long.jsonl");
    const size = writeSession(path, 96);
    const readFile = pathToFileURL(join(REPO, "dist/indexer/read-file.js")).href;
    const script = `
      const { readTranscriptFile } = await import(${JSON.stringify(readFile)});
      const before = process.memoryUsage().rss;
      const texts = [];
      readTranscriptFile(${JSON.stringify(path)}, { onBatch(batch) { for (const e of batch.events) texts.push(e.text.length); } });
      process.stdout.write(JSON.stringify({ before, peak: process.resourceUsage().maxRSS * 1024, texts }));`;
    const res = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(res.status, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout) as { before: number; peak: number; texts: number[] };
    // The long result is one event with all of its text; the line after it is read too.
    expect(Math.max(...out.texts)).toBeGreaterThan(0.9 * size);
    expect(out.texts.length).toBeGreaterThanOrEqual(2);
    expect((out.peak - out.before) / size).toBeLessThan(3);
  }, 120_000);
});
