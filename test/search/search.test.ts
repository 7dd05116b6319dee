/** Search over an index of the real transcripts: every prefix and filter, snippets, evidence chains. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexPaths } from "../../src/indexer/indexer.ts";
import { search } from "../../src/search/search.ts";
import { buildTimeline } from "../../src/search/timeline.ts";
import { resolveSessionId as resolveSession } from "../../src/store/resolve.ts";
import { openStore } from "../../src/store/sqlite/store.ts";
import type { Store } from "../../src/store/types.ts";
import { realFixturesDir } from "../helpers/transcripts.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-search-"));
let store: Store;
beforeAll(() => {
  store = openStore(join(dir, "idx.db"));
  indexPaths({ store, paths: [realFixturesDir()] });
});
afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});
const find = (q: string, limit = 50) => search(store, q, { limit, now: new Date("2026-11-21T12:00:00Z") }).hits;

describe("search", () => {
  it("error: finds error events by code, with the chain back to the message that caused them", () => {
    const hits = find("error: TS2554");
    expect(hits.length).toBeGreaterThan(0);
    for (const h of hits) {
      expect(h.event_type).toBe("error");
      expect(h.snippet).toContain("«TS2554»");
    }
    expect(hits[0]!.evidence.map((e) => e.event_type)).toEqual(["tool_result", "tool_call", "assistant_message"]);
    for (const link of hits[0]!.evidence) expect(store.getEvent(link.event_id)?.event_type).toBe(link.event_type);
  });

  it("test:fail and test:pass filter check results by outcome", () => {
    const failing = find("test:fail");
    expect(failing.length).toBeGreaterThan(5);
    expect(new Set(failing.map((h) => `${h.event_type}/${h.status}`))).toEqual(new Set(["test_result/fail"]));
    expect(find("test:pass").every((h) => h.status === "pass")).toBe(true);
    expect(find("test:tsc").length).toBeGreaterThan(0);
  });

  it("outcome: finds how requests ended; a hit on a request shows its outcome", () => {
    const failed = find("outcome:failed");
    expect(failed.length).toBeGreaterThan(3);
    expect(new Set(failed.map((h) => `${h.event_type}/${h.status}`))).toEqual(new Set(["outcome/failed"]));
    expect(find("kind:outcome theme").every((h) => h.event_type === "outcome")).toBe(true);
    // the request the outcome was derived from is the first link of its chain
    expect(failed[0]!.evidence[0]!.event_type).toBe("user_message");
    const requests = find("kind:user theme", 50);
    const judged = requests.filter((h) => h.outcome);
    expect(judged.length).toBeGreaterThan(3);
    for (const h of judged) {
      const o = store.getEvent(h.outcome!.event_id)!;
      expect([o.event_type, o.parent_event_id, o.status]).toEqual(["outcome", h.event_id, h.outcome!.outcome]);
    }
  });

  it("tool:, cmd:, file:, decision: and resume: pick their kind of event", () => {
    const bash = find("tool:bash");
    expect(bash.length).toBe(50);
    expect(bash.every((h) => h.event_type === "tool_call")).toBe(true);
    expect(find("tool:Bash").length).toBe(50); // tool names match without case
    const cmds = find('cmd:"npm run check"');
    expect(cmds.length).toBeGreaterThan(5);
    expect(
      cmds.every((h) => h.event_type === "command" && /npm run check/.test(store.getEvent(h.event_id)!.command ?? "")),
    ).toBe(true);
    const files = find("file:theme-selector.ts");
    expect(files.length).toBeGreaterThan(0);
    expect(
      files.every(
        (h) => h.event_type === "file_action" && store.getEvent(h.event_id)!.file_path!.endsWith("theme-selector.ts"),
      ),
    ).toBe(true);
    // A value is a substring of the path, as typed: its last word may be cut short, or start a longer one.
    const ids = (q: string) => find(q, 500).map((h) => h.event_id);
    for (const typed of ["file:theme-sel", "file:theme-selector.t", "file:theme-selector"])
      expect(ids(typed), typed).toEqual(expect.arrayContaining(files.map((h) => h.event_id)));
    const ts = find("file:.ts", 500);
    expect(ts.some((h) => store.getEvent(h.event_id)!.file_path!.includes(".tsx"))).toBe(true);
    expect(find("decision:").every((h) => h.event_type === "decision")).toBe(true);
    const resume = find("resume: continued");
    expect(resume.map((h) => h.event_type)).toEqual(["resume_point"]);
    expect(resume[0]!.snippet).toMatch(/«continued»/);
  });

  it("filters: provider, project, session prefix, since/until, kind", () => {
    expect(find("provider:codex").every((h) => h.provider === "codex")).toBe(true);
    expect(find("project:pi-mono theme").every((h) => h.project === "pi-mono")).toBe(true);
    expect(find("session:0fae error").every((h) => h.session_id.startsWith("0fae"))).toBe(true);
    const window = find("since:2025-11-21 until:2025-11-21T01:00 theme");
    expect(window.length).toBeGreaterThan(0);
    expect(window.every((h) => h.timestamp! >= "2025-11-21" && h.timestamp! <= "2025-11-21T01:00")).toBe(true);
    expect(find("kind:user theme").every((h) => h.event_type === "user_message")).toBe(true);
    expect(find("provider:pi kind:error TS2739").length).toBeGreaterThan(0);
  });

  it("code identifiers: whole tokens, their word parts, paths, dotted names", () => {
    expect(find("themeSelector").length).toBeGreaterThan(0);
    // the parts of hideThemeSelector / showThemeSelector are found as words
    expect(find("hide theme selector").some((h) => /hideThemeSelector/.test(store.getEvent(h.event_id)!.text))).toBe(
      true,
    );
    expect(find("src/tui/theme-selector.ts").length).toBeGreaterThan(0);
    expect(find("process.env").every((h) => /process\.env/.test(store.getEvent(h.event_id)!.text))).toBe(true);
    expect(find("thinking_level_change").length).toBeGreaterThanOrEqual(0);
  });

  it("ranks by BM25 and answers filter-only queries newest first", () => {
    const ranked = find("theme", 10);
    const scores = ranked.map((h) => h.score!);
    expect([...scores].sort((a, b) => a - b)).toEqual(scores);
    const newest = find("kind:error", 10).map((h) => h.timestamp ?? "");
    expect([...newest].sort().reverse()).toEqual(newest);
  });
});

describe("sessions and timeline", () => {
  it("resolves a unique prefix and refuses an ambiguous one", () => {
    expect(resolveSession(store, "d703").session_id).toBe("d703a1a9-1b7b-4fb1-b512-c9738b1fe617");
    expect(() => resolveSession(store, "0")).toThrow(/matches \d+ sessions/);
    expect(() => resolveSession(store, "zzzz")).toThrow(/no session matches 'zzzz'/);
  });

  it("timeline: ordered, output collapsed, errors/tests/resume marked, derived events under their source", () => {
    const rows = buildTimeline(store, "d703a1a9-1b7b-4fb1-b512-c9738b1fe617");
    expect(rows.map((r) => r.ordinal)).toEqual([...rows.map((r) => r.ordinal)].sort((a, b) => a - b));
    expect(rows.find((r) => r.event_type === "tool_result" && /\(\d+ lines\)$/.test(r.summary))).toBeDefined();
    expect(rows.filter((r) => r.mark === "test_fail").length).toBe(15);
    expect(rows.filter((r) => r.event_type === "test_result").every((r) => r.depth === 1)).toBe(true);
    expect(rows.some((r) => r.event_type === "file_action")).toBe(false);
    // An outcome sits where it became known, after the next request; it judges an earlier request but is no branch.
    const outcomes = rows.filter((r) => r.event_type === "outcome");
    expect(outcomes.length).toBeGreaterThan(0);
    expect(outcomes.filter((r) => r.branch_from !== null)).toEqual([]);
    expect(
      buildTimeline(store, "d703a1a9-1b7b-4fb1-b512-c9738b1fe617", { all: true }).some(
        (r) => r.event_type === "file_action",
      ),
    ).toBe(true);
    const compacted = buildTimeline(store, "624a4a58-b34c-462d-a70d-13421c8125a8");
    expect(compacted.filter((r) => r.mark === "resume").map((r) => r.summary)).toEqual([
      expect.stringMatching(/^compaction: This session is being continued/),
    ]);
  });
});
