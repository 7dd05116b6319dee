/**
 * Newline-delimited input cut into lines, each byte looked at once: a chunk is searched for its own newlines only,
 * never the text held before it, so a long line costs time in proportion to its length. A line longer than the
 * limit is not kept: its bytes are dropped as they come, except its first and last few hundred (where a JSON-RPC
 * request carries its id), and it is reported when its newline arrives, so that the refusal can name the request.
 */

/**
 * The longest request line `cairn mcp` reads: 1 MiB. Its largest valid request (a tool call with every argument
 * at its maximum, a 1,000-character query the longest) is a few kilobytes, and it asks the client nothing whose
 * answer could be large, so this leaves a couple of hundred times the headroom while one misbehaving client holds
 * at most this much memory and parses it in a few milliseconds.
 */
export const MAX_LINE_BYTES = 1024 * 1024;

/** How much of each end of an over-long line is kept, to find its request id. */
const EDGE_BYTES = 256;
const NEWLINE = 0x0a;

export interface LineSink {
  line(text: string): void;
  /** A line of `bytes` bytes (over the limit) ended; `head` and `tail` are its first and last few hundred bytes. */
  tooLong(bytes: number, head: string, tail: string): void;
}

export class LineSplitter {
  private parts: Buffer[] = [];
  private held = 0;
  /** Over the limit: the line's length so far, its head, and its latest bytes. */
  private dropped = 0;
  private head = "";
  private tail: Buffer = Buffer.alloc(0);

  private readonly sink: LineSink;
  private readonly limit: number;

  constructor(sink: LineSink, limit = MAX_LINE_BYTES) {
    this.sink = sink;
    this.limit = limit;
  }

  push(chunk: Buffer | string): void {
    const data = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    let from = 0;
    for (let end = data.indexOf(NEWLINE); end >= 0; end = data.indexOf(NEWLINE, from)) {
      this.take(data.subarray(from, end));
      this.endLine();
      from = end + 1;
    }
    if (from < data.length) this.take(data.subarray(from));
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.dropped > 0) {
      this.dropped += piece.length;
      this.tail = Buffer.concat([this.tail, piece.subarray(-EDGE_BYTES)]).subarray(-EDGE_BYTES);
      return;
    }
    if (this.held + piece.length <= this.limit) {
      // Copied: a slice would keep the whole chunk it came in alive.
      this.parts.push(Buffer.from(piece));
      this.held += piece.length;
      return;
    }
    // Past the limit: keep the line's ends only, from now on.
    const so = Buffer.concat([...this.parts, piece]);
    this.head = so.subarray(0, EDGE_BYTES).toString("utf8");
    this.tail = Buffer.from(so.subarray(-EDGE_BYTES));
    this.dropped = so.length;
    this.parts = [];
    this.held = 0;
  }

  private endLine(): void {
    if (this.dropped > 0) {
      const [bytes, head, tail] = [this.dropped, this.head, this.tail.toString("utf8")];
      this.dropped = 0;
      this.head = "";
      this.tail = Buffer.alloc(0);
      this.sink.tooLong(bytes, head, tail);
      return;
    }
    const text = Buffer.concat(this.parts, this.held).toString("utf8");
    this.parts = [];
    this.held = 0;
    this.sink.line(text.endsWith("\r") ? text.slice(0, -1) : text);
  }
}

const ID = String.raw`("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)`;
/** An id among the first members of the request (`{"jsonrpc":"2.0","id":…`), as most clients write it. */
const ID_FIRST = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID}`);
/** An id as the request's last member (`…,"id":7}`), as the MCP SDK writes it. */
const ID_LAST = new RegExp(String.raw`[,{]\s*"id"\s*:\s*${ID}\s*\}\s*$`);

/**
 * The id of a request from the two ends of its line, when it stands where clients put it; null otherwise (which
 * JSON-RPC asks for when the id cannot be told). Nested objects' ids cannot be mistaken for it: at the start the
 * id must be the first member, at the end the last member of the outermost object.
 */
export function idFromEnds(head: string, tail: string): string | number | null {
  const hit = ID_FIRST.exec(head) ?? ID_LAST.exec(tail.replace(/\r$/, ""));
  if (!hit) return null;
  try {
    const id = JSON.parse(hit[1]!) as unknown;
    return typeof id === "string" || typeof id === "number" ? id : null;
  } catch {
    return null;
  }
}
