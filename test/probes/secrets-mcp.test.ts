/**
 * Issue 34 on MCP: the planted-secrets transcripts through every tool of the built `cairn mcp`, driven over stdio
 * by the SDK's own client: search_history with queries that find each secret, get_event on every event in the
 * index, session_timeline of every session and around every secret event, resume_brief of every session,
 * list_threads and thread_timeline, usage by every grouping. Neither the text an agent reads nor the structured content may hold a
 * 20-character piece of a planted secret.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVENT_CHARS_MAX } from "../../src/mcp/limits.ts";
import { connectCairn, type McpSession, type Obj } from "../mcp/client.ts";
import { buildIndex, type IndexedEvent, type IndexedSession, indexed, type ProbeIndex, run } from "./helpers/index.ts";
import { LeakReport, writePlantedHome } from "./helpers/planted.ts";
import { SECRET_QUERIES } from "./helpers/queries.ts";

let index: ProbeIndex;
let mcp: McpSession;
let events: IndexedEvent[];
let sessions: IndexedSession[];
let holding: string[];

beforeAll(async () => {
  index = buildIndex("cairn-probe-secrets-mcp-", writePlantedHome);
  ({ events, sessions } = indexed(index.db));
  const list = await run(index, ["secrets", "--json"]);
  holding = [
    ...new Set((JSON.parse(list.stdout) as { findings: Array<{ event_id: string }> }).findings.map((f) => f.event_id)),
  ];
  mcp = await connectCairn(index.db, index.env);
}, 120_000);
afterAll(async () => {
  await mcp?.close();
  index?.remove();
});

/** Calls a tool and adds its text and its structured content to the report. */
async function probe(report: LeakReport, tool: string, args: Obj): Promise<{ text: string; data: Obj }> {
  const r = await mcp.call(tool, args);
  expect(r.isError, `${tool} ${JSON.stringify(args)}: ${r.text}`).toBe(false);
  report.add(`${tool} ${JSON.stringify(args)} (text)`, r.text);
  report.add(`${tool} ${JSON.stringify(args)} (structured)`, JSON.stringify(r.data));
  return r;
}

describe("no MCP tool hands an agent a planted secret", () => {
  it("search_history: queries that find each secret's event, in every mode", async () => {
    const report = new LeakReport();
    let found = 0;
    for (const query of SECRET_QUERIES)
      for (const mode of ["hybrid", "lexical"]) {
        const r = await probe(report, "search_history", { query, mode, limit: 50 });
        found += (r.data["hits"] as unknown[] | undefined)?.length ?? 0;
      }
    expect(found).toBeGreaterThan(SECRET_QUERIES.length);
    expect(report.lines()).toEqual([]);
  });

  it("get_event on every event in the index, its whole text", async () => {
    const report = new LeakReport();
    for (const e of events) await probe(report, "get_event", { event_id: e.event_id, max_chars: EVENT_CHARS_MAX });
    expect(report.lines()).toEqual([]);
  });

  it("get_event's text pages, from every offset a secret event's text has", async () => {
    const report = new LeakReport();
    for (const id of holding) {
      let offset: number | null = 0;
      while (offset !== null) {
        const r = await probe(report, "get_event", { event_id: id, offset, max_chars: 100 });
        offset = (r.data["next_offset"] as number | null) ?? null;
      }
    }
    expect(report.lines()).toEqual([]);
  });

  it("session_timeline of every session (with all rows) and around every secret event", async () => {
    const report = new LeakReport();
    for (const s of sessions) {
      await probe(report, "session_timeline", { session: s.session_id, max_rows: 200 });
      await probe(report, "session_timeline", { session: s.session_id, max_rows: 200, all: true });
    }
    for (const id of holding) await probe(report, "session_timeline", { around: id, all: true });
    expect(report.lines()).toEqual([]);
  });

  it("resume_brief of every session, as of every secret event, and the latest", async () => {
    const report = new LeakReport();
    await probe(report, "resume_brief", {});
    for (const s of sessions) await probe(report, "resume_brief", { session: s.session_id });
    for (const id of holding) {
      const session = events.find((e) => e.event_id === id)!.session_id;
      await probe(report, "resume_brief", { session, at: id });
    }
    expect(report.lines()).toEqual([]);
  });

  it("list_threads and thread_timeline of every thread", async () => {
    const report = new LeakReport();
    const list = await probe(report, "list_threads", { include_single: true, limit: 50 });
    const threads = (list.data["threads"] as Array<{ thread_id: string }>).map((t) => t.thread_id);
    expect(threads.length).toBeGreaterThan(0);
    for (const thread of threads) await probe(report, "thread_timeline", { thread, max_rows: 200, all: true });
    expect(report.lines()).toEqual([]);
  });

  it("usage by every grouping, and of every session", async () => {
    const report = new LeakReport();
    for (const by of ["day", "week", "month", "block", "session", "project", "agent", "model"]) {
      const r = await probe(report, "usage", { by, limit: 100 });
      expect((r.data["totals"] as { calls: number }).calls).toBeGreaterThan(0);
    }
    for (const s of sessions) await probe(report, "usage", { by: "session", session: s.session_id });
    expect(report.lines()).toEqual([]);
  });
});
