/**
 * `cairn mcp` end to end: the real transcripts indexed (with vectors, so search is hybrid) into a temp database,
 * the built CLI started as an MCP server, and every tool driven by the SDK's own client over stdio.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStaticEmbedder } from "../../src/embedders/static.ts";
import { indexPaths } from "../../src/indexer/indexer.ts";
import { BRIEF_TOKENS_MAX } from "../../src/mcp/tools/resume-brief.ts";
import { SEARCH_LIMIT_MAX } from "../../src/mcp/tools/search-history.ts";
import { refreshVectors } from "../../src/search/vectors.ts";
import { openStore } from "../../src/store/sqlite/store.ts";
import { realFixturesDir } from "../helpers/transcripts.ts";
import { connectCairn, type McpSession, type Obj } from "./client.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-mcp-"));
const db = join(dir, "cairn.db");
let mcp: McpSession;
let longest: { id: string; length: number };
let dbHash: string;
const hashOf = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

beforeAll(async () => {
  const store = openStore(db);
  try {
    indexPaths({ store, paths: [realFixturesDir()], parallel: false });
    await refreshVectors(store, createStaticEmbedder());
    longest = { id: "", length: 0 };
    for (const s of store.listSessions({}))
      for (const e of store.sessionEvents(s.session_id))
        if (e.text.length > longest.length) longest = { id: e.event_id, length: e.text.length };
  } finally {
    store.close();
  }
  dbHash = hashOf(db);
  mcp = await connectCairn(db, { XDG_DATA_HOME: dir });
});

afterAll(async () => {
  await mcp?.close();
  rmSync(dir, { recursive: true, force: true });
});

const rowsOf = (data: Obj) => data["rows"] as Obj[];
/** Event ids cited in a text as `[e:ID]` or `[e:ID,ID]`, in order. */
const ids = (text: string) =>
  [...text.matchAll(/\[e:([0-9a-f]{16}(?:,[0-9a-f]{16})*)\]/g)].flatMap((m) => m[1]!.split(","));

describe("cairn mcp over stdio", () => {
  it("lists its tools with descriptions, bounded input schemas, output schemas and read-only hints", async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        "get_event",
        "list_threads",
        "resume_brief",
        "search_history",
        "session_timeline",
        "thread_timeline",
        "usage",
      ].sort(),
    );
    for (const t of tools) {
      expect(t.description?.length).toBeGreaterThan(150);
      expect(t.inputSchema.type).toBe("object");
      expect(t.outputSchema?.type).toBe("object");
      expect(t.annotations?.readOnlyHint).toBe(true);
    }
    const search = tools.find((t) => t.name === "search_history")!;
    expect(search.inputSchema.required).toEqual(["query"]);
    expect(search.inputSchema.properties?.["limit"]).toMatchObject({ type: "integer", maximum: SEARCH_LIMIT_MAX });
    const brief = tools.find((t) => t.name === "resume_brief")!;
    expect(brief.inputSchema.properties?.["budget_tokens"]).toMatchObject({ maximum: BRIEF_TOKENS_MAX });
  });

  it("search_history finds the TS2554 errors; every id it shows, and its evidence chain, resolves with get_event", async () => {
    const r = await mcp.call("search_history", { query: "error: TS2554", limit: 5 });
    expect(r.isError).toBe(false);
    expect(r.data["mode"]).toBe("hybrid");
    const hits = r.data["hits"] as Obj[];
    expect(hits.length).toBeGreaterThan(0);
    for (const h of hits) {
      expect(h["event_type"]).toBe("error");
      expect(String(h["snippet"])).toContain("«TS2554»");
      expect(r.text).toContain(`[e:${h["event_id"]}]`);
      const chain = (h["evidence"] as Obj[]).map((l) => String(l["event_id"]));
      expect(chain.length).toBeGreaterThan(0);
      for (const id of [String(h["event_id"]), ...chain]) {
        const e = await mcp.call("get_event", { event_id: id });
        expect(e.isError).toBe(false);
        expect((e.data["event"] as Obj)["event_id"]).toBe(id);
      }
    }
    const first = await mcp.call("get_event", { event_id: String(hits[0]!["event_id"]) });
    expect(first.text).toContain("TS2554");
    const out = (first.data["edges"] as { out: Obj[] }).out;
    expect(out).toContainEqual(
      expect.objectContaining({
        edge_type: "derived_from",
        other: (hits[0]!["evidence"] as Obj[])[0]!["event_id"],
        other_kind: "event",
      }),
    );
    // The tool result behind it fails with an error signature: an entity, resolved to its name.
    const result = await mcp.call("get_event", { event_id: String((hits[0]!["evidence"] as Obj[])[0]!["event_id"]) });
    const signature = (result.data["edges"] as { out: Obj[] }).out.find((x) => x["edge_type"] === "fails_with");
    expect(signature).toMatchObject({ other_kind: "entity", other_type: "error_signature" });
    expect(result.text).toContain(`fails_with error_signature "${signature!["display"]}"`);
  });

  it("session_timeline: a window around an event, in order, that pages with from/to", async () => {
    const hit = ((await mcp.call("search_history", { query: "error: TS2554", limit: 1 })).data["hits"] as Obj[])[0]!;
    const around = await mcp.call("session_timeline", { around: hit["event_id"], limit: 12 });
    expect(around.isError).toBe(false);
    const rows = rowsOf(around.data);
    expect(rows.map((r) => r["event_id"])).toContain(hit["event_id"]);
    const ordinals = rows.map((r) => Number(r["ordinal"]));
    expect(ordinals).toEqual([...ordinals].sort((a, b) => a - b));
    expect(new Set(ordinals).size).toBe(ordinals.length);
    expect((around.data["session"] as Obj)["session_id"]).toBe(hit["session_id"]);
    expect(ids(around.text)).toEqual(rows.map((r) => r["event_id"]));
    const window = around.data["window"] as { from: number; to: number };
    expect(rows.length).toBeLessThanOrEqual(12);
    expect(window.from).toBeLessThanOrEqual(Number(rows[0]!["ordinal"]));
    expect(window.to).toBeGreaterThanOrEqual(Number(rows.at(-1)!["ordinal"]));
    const later = around.data["later"] as { from: number };
    expect(later.from).toBe(window.to + 1);
    const next = await mcp.call("session_timeline", { session: hit["session_id"], from: later.from, limit: 12 });
    expect(Number(rowsOf(next.data)[0]!["ordinal"])).toBeGreaterThanOrEqual(later.from);
    expect(Math.min(...rowsOf(next.data).map((r) => Number(r["ordinal"])))).toBeGreaterThan(Math.max(...ordinals));

    // Without a window: the session's end, where the work stopped, and how to page back.
    const prefix = String(hit["session_id"]).slice(0, 8);
    const tail = await mcp.call("session_timeline", { session: prefix, limit: 5, all: true });
    const events = Number((tail.data["session"] as Obj)["events"]);
    expect((tail.data["window"] as Obj)["to"]).toBe(events - 1);
    expect(rowsOf(tail.data).at(-1)!["ordinal"]).toBe(events - 1);
    expect(tail.data["later"]).toBeNull();
    expect(tail.data["earlier"]).toEqual({ to: events - 6 });
    expect(tail.text).toContain(`to=${events - 6}`);
  });

  it("get_event pages a long event's text and says how to get the rest", async () => {
    expect(longest.length).toBeGreaterThan(20_000);
    const first = await mcp.call("get_event", { event_id: longest.id.slice(0, 12) });
    expect(first.isError).toBe(false);
    expect(first.data["text"]).toHaveLength(6_000);
    expect(first.data["text_range"]).toEqual({ offset: 0, end: 6_000, length: longest.length });
    expect(first.data["next_offset"]).toBe(6_000);
    expect(first.text).toContain(`get_event event_id=${longest.id} offset=6000`);
    const rest = await mcp.call("get_event", { event_id: longest.id, offset: longest.length - 100, max_chars: 12_000 });
    expect(rest.data["text"]).toHaveLength(100);
    expect(rest.data["next_offset"]).toBeNull();
    expect(rest.text).toContain("--- end of text ---");
    const tooMuch = await mcp.call("get_event", { event_id: longest.id, max_chars: 100_000 });
    expect(tooMuch.isError).toBe(true);
    expect(tooMuch.text).toMatch(/max_chars/);
  });

  it("resume_brief: a cited brief under the cap whose citations resolve with get_event", async () => {
    const r = await mcp.call("resume_brief", { cwd: "/Users/badlogic/workspaces/pi-mono" });
    expect(r.isError).toBe(false);
    expect(r.data["session_id"]).toBe("d703a1a9-1b7b-4fb1-b512-c9738b1fe617");
    expect(Number(r.data["tokens"])).toBeLessThanOrEqual(BRIEF_TOKENS_MAX);
    expect(r.data["budget_tokens"]).toBe(BRIEF_TOKENS_MAX);
    expect(String(r.data["budget_note"])).toMatch(/capped at 4000/);
    expect((r.data["validation"] as Obj)["ok"]).toBe(true);
    expect(String(r.data["text"])).toMatch(/^# Resume brief/);
    const cited = (r.data["citations"] as Obj[]).map((c) => String(c["event_id"]));
    expect(cited.length).toBeGreaterThan(20);
    expect(Number(r.data["citations_total"])).toBeGreaterThanOrEqual(cited.length);
    // Brief lines show the first and last of their cites; the list has them all (as many as fit).
    const inText = [...new Set(ids(r.text))];
    expect(inText.length).toBeGreaterThan(20);
    if (cited.length === r.data["citations_total"]) for (const id of inText) expect(cited).toContain(id);
    const sample = [
      cited[0]!,
      cited[Math.floor(cited.length / 2)]!,
      cited.at(-1)!,
      inText.at(-1)!,
      String(r.data["at"]),
    ];
    for (const id of sample) {
      const e = await mcp.call("get_event", { event_id: id });
      expect(e.isError).toBe(false);
      expect((e.data["event"] as Obj)["session_id"]).toBe(r.data["session_id"]);
    }

    const small = await mcp.call("resume_brief", { session: "019b04ae", budget_tokens: 1_000 });
    expect(small.data).toMatchObject({ session_id: "019b04ae-b1c6-7c72-a134-a4c2de66058c", budget_tokens: 1_000 });
    expect(small.data["budget_note"]).toBeNull();
    const atEvent = await mcp.call("resume_brief", { at: cited[0]!, budget_tokens: 1_000 });
    expect(atEvent.data["session_id"]).toBe(r.data["session_id"]);
    expect(atEvent.text).toContain(`as of [e:${atEvent.data["at"]}]`);
  });

  it("list_threads and thread_timeline: well-formed threads whose rows name their sessions", async () => {
    const r = await mcp.call("list_threads", { include_single: true, limit: 50 });
    expect(r.isError).toBe(false);
    const threads = r.data["threads"] as Obj[];
    expect(threads.length).toBe(r.data["total"]);
    expect(threads.length).toBeGreaterThan(3);
    for (const t of threads) {
      expect(t["thread_id"]).toMatch(/^[0-9a-f]{12}$/);
      expect(["open", "closed"]).toContain(t["label"]);
      expect(String(t["label_reason"]).length).toBeGreaterThan(0);
      expect((t["sessions"] as Obj[]).length).toBeGreaterThan(0);
      expect(r.text).toContain(`thread ${t["thread_id"]}`);
    }
    const updated = threads.map((t) => String(t["updated_at"] ?? ""));
    expect(updated).toEqual([...updated].sort().reverse());
    // Threads of one session (subagents folded in) are listed only on request.
    const joined = await mcp.call("list_threads", {});
    for (const j of joined.data["threads"] as Obj[]) expect(threads).toContainEqual(j);
    if ((joined.data["threads"] as Obj[]).length === 0) expect(joined.text).toMatch(/^no threads .*include_single/);

    const t = threads.find((x) => (x["sessions"] as Obj[]).length > 1) ?? threads[0]!;
    const members = new Set((t["sessions"] as Obj[]).map((s) => s["session_id"]));
    const tl = await mcp.call("thread_timeline", { thread: String(t["thread_id"]).slice(0, 6), limit: 30 });
    expect(tl.isError).toBe(false);
    expect(tl.data["thread_id"]).toBe(t["thread_id"]);
    const rows = rowsOf(tl.data);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(members.has(row["session_id"])).toBe(true);
    expect(ids(tl.text)).toEqual(rows.map((x) => x["event_id"]));
    expect((tl.data["window"] as Obj)["end_row"]).toBe(tl.data["total_rows"]);
  });

  it("stays within the size bound on wide requests and says what it left out", async () => {
    const wide = await mcp.call("session_timeline", { session: "d703a1a9", limit: 200, all: true });
    expect(rowsOf(wide.data).length).toBeLessThan(200);
    expect(String(wide.data["truncated"])).toMatch(/size bound/);
    expect(wide.text).toMatch(/earlier: session_timeline session=d703a1a9-\S+ to=\d+/);
    const many = await mcp.call("search_history", { query: "error:", limit: SEARCH_LIMIT_MAX });
    expect(many.isError).toBe(false);
    expect((many.data["hits"] as Obj[]).length).toBeGreaterThan(10);
  });

  it("refuses bad input as tool errors that say what is wrong", async () => {
    const bad = await mcp.call("search_history", { query: "since:yesterdayy timeout" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/^bad query: .*'yesterdayy'/);
    const huge = await mcp.call("search_history", { query: "timeout", limit: 10_000 });
    expect(huge.isError).toBe(true);
    expect(huge.text).toMatch(/limit/);
    const unknown = await mcp.call("session_timeline", { session: "ffffffff-none" });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/no session matches 'ffffffff-none'/);
    const nothing = await mcp.call("session_timeline", {});
    expect(nothing.isError).toBe(true);
    expect(nothing.text).toMatch(/give a session .* or an event to show the rows around/);
    const noEvent = await mcp.call("get_event", { event_id: "ffffffffffffffff" });
    expect(noEvent.isError).toBe(true);
    expect(noEvent.text).toMatch(/no event matches 'ffffffffffffffff'; search_history finds events/);
    const both = await mcp.call("resume_brief", { budget_tokens: 1_000, ratio: 0.1 });
    expect(both.isError).toBe(true);
    expect(both.text).toMatch(/give a budget or a ratio, not both/);
  });

  it("never writes the index", () => {
    expect(hashOf(db)).toBe(dbHash);
  });
});
