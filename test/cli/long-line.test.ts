/**
 * A very long line (a tool result the size of a build log) through `cairn index`: its text kept as head and tail
 * with a marker naming the line (the transcript keeps it whole), the start and the end searchable, the line after
 * it indexed, and peak memory beyond the same command on a small file a fraction of the line's size (the line is
 * never held whole). Time is measured in `npm run bench -- long-line`, never here.
 */
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { decodeStored } from "../../src/store/shared/text-codec.ts";
import { cairn } from "../helpers/cli.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-long-line-"));
afterAll(() => process.env["KEEP"] || rmSync(dir, { recursive: true, force: true }));
const MB = 1024 * 1024;

/** A pi session whose second line is a tool result of about `mb` MiB of log text, then one short message. */
function writeSession(path: string, mb: number): number {
  const fd = openSync(path, "w");
  const header = { type: "session", version: 3, id: `long-${mb}`, timestamp: "2026-01-01T00:00:00Z", cwd: "/w" };
  writeSync(fd, `${JSON.stringify(header)}\n`);
  const head = `{"type":"message","id":"m1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"first: quokka started\\n`;
  writeSync(fd, head);
  const block = Buffer.from(JSON.stringify(`${"ok  src/module.ts compiled in 12 ms\n".repeat(4096)}`).slice(1, -1));
  let line = head.length;
  while (line + block.length < mb * MB) line += writeSync(fd, block);
  line += writeSync(fd, `last: wombat finished"}],"isError":false}}\n`);
  const after = `{"type":"message","id":"m2","parentId":"m1","timestamp":"2026-01-01T00:00:02Z","message":{"role":"user","content":"zanzibar after the long output"}}\n`;
  writeSync(fd, after);
  closeSync(fd);
  return line;
}

// Records the CLI's peak RSS as it exits, from inside the real process (the parse worker shares the process).
const preload = join(dir, "peak.mjs");
writeFileSync(
  preload,
  `import { writeFileSync } from "node:fs";
   import { isMainThread } from "node:worker_threads";
   if (isMainThread) process.on("exit", () => writeFileSync(process.env.PEAK_OUT, String(process.resourceUsage().maxRSS * 1024)));`,
);

function indexWithPeak(session: string, name: string): { peak: number; db: string } {
  const db = join(dir, `${name}.db`);
  const out = join(dir, `${name}.peak`);
  const res = cairn(["index", "--root", session, "--db", db, "--json"], {
    env: { HOME: join(dir, "home"), PEAK_OUT: out, NODE_OPTIONS: `--import=${preload}` },
  });
  expect(res.code, res.stderr).toBe(0);
  return { peak: Number(readFileSync(out, "utf8")), db };
}

describe("cairn index on a very long line", () => {
  it("keeps its ends with a marker, indexes what follows, and never holds the line whole", () => {
    const small = join(dir, "small.jsonl");
    writeSession(small, 1);
    const big = join(dir, "big.jsonl");
    const size = writeSession(big, 96);
    const base = indexWithPeak(small, "small");
    const run = indexWithPeak(big, "big");

    const db = new Database(run.db, { readonly: true });
    const row = db
      .prepare("SELECT text, event_id FROM session_events WHERE event_type = 'tool_result' ORDER BY length(text) DESC")
      .get() as { text: string | Uint8Array; event_id: string };
    db.close();
    // Read past the store, so decoded here: the text may be stored compressed (store/shared/text-codec.ts).
    const text = decodeStored(row.text);
    const id = row.event_id;
    expect(text.startsWith("first: quokka started\n")).toBe(true);
    expect(text.endsWith("last: wombat finished")).toBe(true);
    expect(text).toMatch(
      /\[… [\d.]+ MiB of this text are left out of cairn's index; the transcript has it whole, line 2: cairn show <id> --source …\]/,
    );
    expect(text.length).toBeLessThan(2 * MB);
    for (const word of ["quokka", "wombat"]) {
      const found = cairn(["search", word, "--db", run.db, "--json"], { env: { HOME: join(dir, "home") } });
      expect(found.code, found.stderr).toBe(0);
      expect((JSON.parse(found.stdout) as { hits: Array<{ source_line: number }> }).hits[0]?.source_line).toBe(2);
    }
    const hit = cairn(["search", "zanzibar", "--db", run.db, "--json"], { env: { HOME: join(dir, "home") } });
    expect(hit.code, hit.stderr).toBe(0);
    const first = (JSON.parse(hit.stdout) as { hits: Array<{ event_type: string; source_line: number }> }).hits[0];
    expect(first).toMatchObject({ event_type: "user_message", source_line: 3 });
    // The transcript still has the whole line, and `show --source` prints it as written.
    const source = cairn(["show", id, "--source", "--db", run.db], { env: { HOME: join(dir, "home") } });
    expect(source.code, source.stderr).toBe(0);
    expect(source.stdout.length).toBe(size);
    expect(source.stdout.startsWith('{"type":"message","id":"m1"')).toBe(true);
    expect(source.stdout.endsWith('last: wombat finished"}],"isError":false}}\n')).toBe(true);
    expect(
      cairn(["show", "nosuchevent", "--source", "--db", run.db], { env: { HOME: join(dir, "home") } }).code,
    ).not.toBe(0);
    // Held whole in one row, the text cost about 3.1 times its size (its bytes and SQLite's two copies); read
    // through the clipper, what is held is its ends and one read buffer (measured about 0.5 on a 96 MiB line and
    // 0.2 on a 200 MiB one: the read buffers the garbage collector has not taken back yet, not the line).
    expect((run.peak - base.peak) / size).toBeLessThan(0.8);
  }, 180_000);
});
