/**
 * Searches with filters and no words take shortcuts (facet counts, a project's sessions walked newest first, the
 * time index): on the real transcripts each must list exactly the events a plain query sorting every match lists.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexPaths } from "../../src/indexer/indexer.ts";
import type { EventQuery } from "../../src/store/query-types.ts";
import { openStore } from "../../src/store/sqlite/store.ts";
import type { Store } from "../../src/store/types.ts";
import { realFixturesDir } from "../helpers/transcripts.ts";

let dir: string;
let store: Store;
let raw: Database.Database;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "cairn-filter-only-"));
  store = openStore(join(dir, "idx.db"));
  indexPaths({ store, paths: [realFixturesDir()] });
  raw = new Database(join(dir, "idx.db"), { readonly: true });
});
afterAll(() => {
  raw.close();
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every event passing `where`, sorted whole: the order the shortcuts must reproduce. */
function reference(where: string, params: unknown[], limit: number): string[] {
  return raw
    .prepare(
      `SELECT e.event_id FROM session_events e JOIN sessions s ON s.session_id = e.session_id
       WHERE ${where} ORDER BY e.timestamp DESC, e.rowid DESC LIMIT ?`,
    )
    .pluck()
    .all(...params, limit) as string[];
}

const ids = (q: EventQuery) => store.searchEvents(q).map((h) => h.event.event_id);

describe("filter-only search", () => {
  it("by project: the same events, newest first, as sorting every match", () => {
    const projects = raw.prepare("SELECT DISTINCT project FROM sessions WHERE project IS NOT NULL").pluck().all();
    expect(projects.length).toBeGreaterThan(2);
    for (const project of projects as string[]) {
      for (const limit of [1, 5, 40]) {
        const expected = reference(
          "(s.project = ? COLLATE NOCASE OR s.cwd LIKE ? ESCAPE '\\')",
          [project, `%${project}%`],
          limit,
        );
        expect(ids({ match: null, projects: [project], limit }), `${project} ${limit}`).toEqual(expected);
      }
    }
  });

  it("by provider, tool, kind and status, with few and many matches, and none", () => {
    const cases: Array<[EventQuery, string, unknown[]]> = [
      [{ match: null, providers: ["claude"], limit: 30 }, "e.provider = ?", ["claude"]],
      [{ match: null, providers: ["pi"], limit: 30 }, "e.provider = ?", ["pi"]],
      [
        { match: null, types: ["tool_call"], tool: "Bash", limit: 30 },
        "e.event_type = 'tool_call' AND e.tool_name = ? COLLATE NOCASE",
        ["Bash"],
      ],
      [{ match: null, types: ["tool_call"], tool: "B", limit: 30 }, "e.tool_name = ?", ["B"]],
      // The tool's own index compares without case, as the filter does.
      [
        { match: null, types: ["tool_call", "tool_result"], tool: "bash", limit: 30 },
        "e.event_type IN ('tool_call', 'tool_result') AND e.tool_name = ? COLLATE NOCASE",
        ["bash"],
      ],
      [{ match: null, types: ["error"], limit: 30 }, "e.event_type = 'error'", []],
      [
        { match: null, types: ["test_result"], statuses: ["fail"], limit: 30 },
        "e.event_type = 'test_result' AND e.status = ?",
        ["fail"],
      ],
    ];
    const project = raw
      .prepare("SELECT project FROM sessions WHERE project IS NOT NULL AND provider = 'claude' LIMIT 1")
      .pluck()
      .get();
    const since = raw
      .prepare("SELECT timestamp FROM session_events ORDER BY timestamp LIMIT 1 OFFSET 200")
      .pluck()
      .get();
    cases.push(
      // Session conditions met inside the newest-first walk (a set of sessions), with and without event filters.
      [
        { match: null, providers: ["claude"], projects: [project as string], limit: 30 },
        "e.provider = ? AND (s.project = ? COLLATE NOCASE OR s.cwd LIKE ? ESCAPE '\\')",
        ["claude", project, `%${project}%`],
      ],
      [
        { match: null, types: ["tool_call"], includeSubagents: false, limit: 30 },
        "e.event_type = 'tool_call' AND s.kind NOT IN ('subagent', 'exec')",
        [],
      ],
      [{ match: null, includeSubagents: false, limit: 30 }, "s.kind NOT IN ('subagent', 'exec')", []],
      [
        { match: null, types: ["assistant_message"], since: since as string, limit: 30 },
        "e.event_type = 'assistant_message' AND e.timestamp >= ?",
        [since],
      ],
    );
    for (const [q, where, params] of cases) {
      const expected = reference(where, params, q.limit);
      // Only a tool name still being typed matches nothing; every other case has events to order.
      if (q.tool !== "B") expect(expected.length, JSON.stringify(q)).toBeGreaterThan(0);
      expect(ids(q), JSON.stringify(q)).toEqual(expected);
    }
  });
});
