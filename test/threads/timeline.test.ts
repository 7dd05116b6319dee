/** A thread's merged timeline: every session's events by time, each row naming its session. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTimeline, mergeTimelines, type TimelineRow } from "../../src/search/timeline.ts";
import { listThreads } from "../../src/threads/list.ts";
import { threadTimeline } from "../../src/threads/timeline.ts";
import { indexWork, sid, Work, type WorkIndex } from "./work.ts";

const files = ["src/auth/token.ts", "src/auth/refresh.ts"];
let w: WorkIndex;
let id: string;
beforeAll(() => {
  // Interleaved in time: b starts 2.5 s after a, while a is still working.
  w = indexWork(
    new Work("claude", sid("a"), { start: "2026-01-01T10:00:00.000Z" })
      .prompt("fix auth")
      .edit(...files)
      .test(1),
    new Work("codex", sid("b"), { start: "2026-01-01T10:00:02.500Z" })
      .prompt("review auth")
      .read(...files)
      .test(0),
    new Work("pi", sid("c"), { start: "2026-01-01T09:00:00.000Z", cwd: "/w/other" }).prompt("x").edit("src/z.ts"),
  );
  id = listThreads(w.store).threads[0]!.thread_id;
});
afterAll(() => w.close());

describe("thread timeline", () => {
  it("merges the sessions' events by time, each row naming its session and agent", () => {
    const { thread, events } = threadTimeline(w.store, id);
    expect(thread.thread_id).toBe(id);
    const a = buildTimeline(w.store, sid("a"));
    const b = buildTimeline(w.store, sid("b"));
    expect(events).toHaveLength(a.length + b.length);
    expect(new Set(events.map((e) => `${e.provider} ${e.session_id}`))).toEqual(
      new Set([`claude ${sid("a")}`, `codex ${sid("b")}`]),
    );
    const times = events.map((e) => Date.parse(e.timestamp!));
    expect(times).toEqual([...times].sort((x, y) => x - y));
    // Each session keeps its own order, and the two really interleave.
    for (const s of [sid("a"), sid("b")]) {
      const own = events.filter((e) => e.session_id === s).map((e) => e.event_id);
      expect(own).toEqual(buildTimeline(w.store, s).map((r) => r.event_id));
    }
    const switches = events.filter((e, i) => i > 0 && e.session_id !== events[i - 1]!.session_id).length;
    expect(switches).toBeGreaterThan(1);
    expect(events[0]).toMatchObject({ session_id: sid("a"), mark: "prompt", summary: "fix auth" });
  });

  it("keeps the single-session marks: failing and passing checks, errors, derived rows under their source", () => {
    const { events } = threadTimeline(w.store, id);
    expect(events.filter((e) => e.mark === "test_fail").map((e) => e.provider)).toEqual(["claude"]);
    expect(events.filter((e) => e.mark === "test_pass").map((e) => e.provider)).toEqual(["codex"]);
    const fail = events.findIndex((e) => e.mark === "test_fail");
    expect(events[fail]!.depth).toBe(1);
    expect(events[fail - 1]!.session_id).toBe(sid("a"));
    expect(threadTimeline(w.store, id, { all: true }).events.some((e) => e.mark === "file")).toBe(true);
  });

  it("resolves a prefix, and names what is wrong with an unknown or ambiguous one", () => {
    expect(threadTimeline(w.store, id.slice(0, 5)).thread.thread_id).toBe(id);
    expect(() => threadTimeline(w.store, "zzzz")).toThrow("no thread matches 'zzzz'");
    // Threads of one session resolve too.
    const single = listThreads(w.store, { includeSingle: true }).threads.find((t) => t.sessions.length === 1)!;
    expect(threadTimeline(w.store, single.thread_id).events[0]!.session_id).toBe(sid("c"));
    expect(() => threadTimeline(w.store, "")).toThrow(/give a thread id/);
  });
});

describe("mergeTimelines", () => {
  const row = (ordinal: number, timestamp: string | null, depth = 0): TimelineRow => ({
    event_id: `e${ordinal}`,
    ordinal,
    timestamp,
    event_type: "tool_call",
    mark: "call",
    summary: "",
    depth,
    sidechain: false,
    branch_from: null,
    status: null,
  });

  it("never moves a row before one it followed; untimed rows take the time before them; ties go to the first part", () => {
    const merged = mergeTimelines([
      {
        session_id: "x",
        provider: "claude",
        started_at: "2026-01-01T00:00:00Z",
        rows: [
          row(0, "2026-01-01T00:00:01Z"),
          row(1, null, 1),
          row(2, "2026-01-01T00:00:05Z"),
          row(3, "2026-01-01T00:00:02Z"),
        ],
      },
      {
        session_id: "y",
        provider: "pi",
        started_at: "2026-01-01T00:00:00Z",
        rows: [row(0, "2026-01-01T00:00:01Z"), row(1, "2026-01-01T00:00:03Z")],
      },
    ]);
    expect(merged.map((r) => `${r.session_id}${r.ordinal}`)).toEqual(["x0", "x1", "y0", "y1", "x2", "x3"]);
  });
});
