/**
 * `cairn mcp`'s input framing (src/mcp/json-lines.ts) and serveLines over it: a request line over the limit is
 * refused with the request's id as soon as it ends, without being kept, and the connection goes on; lines are cut
 * in one pass however they are chunked; the server stops reading when the input ends or the signal aborts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { createCairn } from "../../src/app/cairn.ts";
import { idFromEnds, LineSplitter, MAX_LINE_BYTES } from "../../src/mcp/json-lines.ts";
import { createMcpHandler, type McpHandler, serveLines } from "../../src/mcp/stdio-server.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-mcp-lines-"));
const cairn = createCairn({ db: join(dir, "missing.db"), env: { HOME: dir } });
const handler = createMcpHandler({ cairn, version: "9.9.9" });
afterAll(() => {
  cairn.close();
  rmSync(dir, { recursive: true, force: true });
});

type Seen = { line: string } | { tooLong: number; head: string; tail: string };
function splitter(limit?: number): { push(chunk: Buffer | string): void; seen: Seen[] } {
  const seen: Seen[] = [];
  const s = new LineSplitter(
    { line: (line) => seen.push({ line }), tooLong: (tooLong, head, tail) => seen.push({ tooLong, head, tail }) },
    limit,
  );
  return { push: (c) => s.push(c), seen };
}

/** A server on in-memory streams, and every line it writes back, parsed. */
function serve(h: McpHandler = handler, signal?: AbortSignal) {
  const input = new PassThrough();
  const output = new PassThrough();
  const replies: Record<string, unknown>[] = [];
  let buffered = "";
  const waiters: (() => void)[] = [];
  output.on("data", (c: Buffer) => {
    buffered += c.toString();
    for (let nl = buffered.indexOf("\n"); nl >= 0; nl = buffered.indexOf("\n")) {
      replies.push(JSON.parse(buffered.slice(0, nl)) as Record<string, unknown>);
      buffered = buffered.slice(nl + 1);
    }
    for (const w of waiters.splice(0)) w();
  });
  const done = serveLines(h, input, output, signal);
  const replyCount = async (n: number) => {
    while (replies.length < n) await new Promise<void>((r) => waiters.push(r));
    return replies;
  };
  return { input, replies, done, replyCount };
}

const ping = (id: number) => `${JSON.stringify({ jsonrpc: "2.0", id, method: "ping" })}\n`;

describe("cutting input into lines", () => {
  it("finds every line however the input is chunked, without its \\r, keeping multi-byte characters whole", () => {
    const text = '{"a":"é€😀"}\r\n\n{"b":1}\n{"c":"tail';
    const bytes = Buffer.from(text, "utf8");
    for (const size of [1, 2, 3, 7, bytes.length]) {
      const s = splitter();
      for (let i = 0; i < bytes.length; i += size) s.push(bytes.subarray(i, i + size));
      expect(s.seen).toEqual([{ line: '{"a":"é€😀"}' }, { line: "" }, { line: '{"b":1}' }]);
    }
  });

  it("drops a line over the limit as it comes, keeping its ends, and reports it at its newline", () => {
    const s = splitter(100);
    const line = `{"jsonrpc":"2.0","method":"x","params":{"q":"${"y".repeat(10_000)}"},"id":"abc"}`;
    const bytes = Buffer.from(line);
    for (let i = 0; i < bytes.length; i += 7) s.push(bytes.subarray(i, i + 7));
    // Not reported before its end: the id comes last.
    expect(s.seen).toEqual([]);
    s.push('\n{"next":1}\n');
    expect(s.seen).toHaveLength(2);
    const [refused, next] = s.seen as [{ tooLong: number; head: string; tail: string }, Seen];
    expect(refused.tooLong).toBe(bytes.length);
    expect(line.startsWith(refused.head)).toBe(true);
    expect(refused.head.length).toBeGreaterThanOrEqual(100);
    expect(refused.tail).toBe(line.slice(-256));
    expect(next).toEqual({ line: '{"next":1}' });
  });

  it("takes a line of exactly the limit, and refuses one byte more", () => {
    const s = splitter(10);
    s.push(`${"a".repeat(10)}\n${"b".repeat(10)}`);
    s.push("c\n");
    expect(s.seen).toEqual([
      { line: "a".repeat(10) },
      { tooLong: 11, head: `${"b".repeat(10)}c`, tail: `${"b".repeat(10)}c` },
    ]);
  });
});

describe("the id of a refused request", () => {
  it("is read where clients write it: first (after jsonrpc), or last as the MCP SDK writes it", () => {
    expect(idFromEnds('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"q":"xx', "")).toBe(7);
    expect(idFromEnds('{ "id" : "r-1", "jsonrpc":"2.0"', "")).toBe("r-1");
    expect(idFromEnds('{"method":"tools/call","params":{"q":"x', 'xxx"}},"jsonrpc":"2.0","id":12}')).toBe(12);
    expect(idFromEnds("{", 'xx"},"id":"a\\"b"}\r')).toBe('a"b');
  });

  it("is null when it cannot be told: nested, absent, or cut", () => {
    expect(idFromEnds('{"method":"x","params":{"id":3,"q":"x', 'x"}}')).toBeNull();
    expect(idFromEnds('{"method":"x","params":{"q":"x', 'x","id":3}}')).toBeNull();
    expect(idFromEnds('{"method":"x","params":{"q":"x', 'x"}}')).toBeNull();
    expect(idFromEnds("", '"x\\",\\"id\\":3}"}')).toBeNull();
  });
});

describe("serveLines", () => {
  it("refuses a 50 MB request line with its id at its end, and answers the next request", async () => {
    const { input, replyCount, done } = serve();
    const filler = Buffer.alloc(64 * 1024, "x");
    input.write('{"method":"tools/call","params":{"name":"search_history","arguments":{"query":"');
    for (let sent = 0; sent < 50e6; sent += filler.length) input.write(filler);
    input.write('"}},"jsonrpc":"2.0","id":41}\n');
    input.write(ping(42));
    const replies = await replyCount(2);
    expect(replies[0]).toMatchObject({ jsonrpc: "2.0", id: 41, error: { code: -32600 } });
    expect(String((replies[0]!["error"] as { message: string }).message)).toMatch(
      new RegExp(`a line of \\d{8} bytes; requests are limited to ${MAX_LINE_BYTES} bytes`),
    );
    expect(replies[1]).toEqual({ jsonrpc: "2.0", id: 42, result: {} });
    input.end();
    await done;
  });

  it("when the input ends: writes the answers still being computed, then resolves and stops reading", async () => {
    let release = () => {};
    const slow: McpHandler = {
      handle: (line) =>
        new Promise((resolve) => {
          release = () => resolve({ jsonrpc: "2.0", id: JSON.parse(line).id, result: {} });
        }),
    };
    const { input, replies, done } = serve(slow);
    input.write(ping(1));
    input.end();
    let resolved = false;
    void done.then(() => {
      resolved = true;
    });
    await new Promise((r) => setImmediate(r));
    expect(resolved).toBe(false);
    release();
    await done;
    expect(replies).toEqual([{ jsonrpc: "2.0", id: 1, result: {} }]);
  });

  it("when the signal aborts: resolves at once, drops answers in progress and reads no further", async () => {
    const never: McpHandler = { handle: () => new Promise(() => {}) };
    const stop = new AbortController();
    const { input, replies, done } = serve(never, stop.signal);
    input.write(ping(1));
    await new Promise((r) => setImmediate(r));
    stop.abort();
    await done;
    expect(input.listenerCount("data")).toBe(0);
    expect(input.isPaused()).toBe(true);
    expect(replies).toEqual([]);
  });
});
