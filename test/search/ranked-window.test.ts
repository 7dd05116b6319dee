/**
 * Ranked searches read the newest matches by a LIMIT, take the best candidates by BM25 and read only their events;
 * on the real transcripts each must list exactly what one statement ranking every match in the window lists (the
 * window bounded by `rowid >=` its oldest match, as the store first wrote it), filters applied to every candidate.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexPaths } from "../../src/indexer/indexer.ts";
import type { EventQuery } from "../../src/store/query-types.ts";
import { ftsMatch } from "../../src/store/sqlite/fts-match.ts";
import { openStore } from "../../src/store/sqlite/store.ts";
import type { Store } from "../../src/store/types.ts";
import { realFixturesDir } from "../helpers/transcripts.ts";

let dir: string;
let store: Store;
let raw: Database.Database;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "cairn-ranked-window-"));
  store = openStore(join(dir, "idx.db"));
  indexPaths({ store, paths: [realFixturesDir()] });
  raw = new Database(join(dir, "idx.db"), { readonly: true });
});
afterAll(() => {
  raw.close();
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const WINDOW = 4_000;
const BM25 = "bm25(events_fts, 1.0, 0.4, 0.0, 0.3)";

/**
 * Every match in the window scored and filtered in one statement, best first. Of equal scores at the page's edge
 * the older event is kept when the index's facets do all the filtering (the store then takes just a page of
 * candidates), else the lower event id; the page is listed by score, then event id.
 */
function reference(match: string, where: string, params: unknown[], limit: number, facetsOnly: boolean): string[] {
  const floor =
    (raw
      .prepare("SELECT rowid FROM events_fts WHERE events_fts MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?")
      .pluck()
      .get(match, WINDOW - 1) as number | undefined) ?? 0;
  return raw
    .prepare(
      `SELECT event_id FROM (SELECT e.event_id, h.r FROM
         (SELECT rowid, ${BM25} AS r FROM events_fts WHERE events_fts MATCH ? AND rowid >= ?) h
         JOIN session_events e ON e.rowid = h.rowid JOIN sessions s ON s.session_id = e.session_id
         WHERE ${where} ORDER BY h.r, ${facetsOnly ? "e.rowid" : "e.event_id"} LIMIT ?)
       ORDER BY r, event_id`,
    )
    .pluck()
    .all(match, floor, ...params, limit) as string[];
}

const word = (w: string): EventQuery["match"] => ({ all: [[{ tokens: [w], idents: null }]], none: [] });
const ids = (q: EventQuery) => store.searchEvents(q).map((h) => h.event.event_id);

describe("ranked search", () => {
  it("lists what ranking every match in the window lists, with and without filters", () => {
    const project = raw.prepare("SELECT project FROM sessions GROUP BY project ORDER BY count(*) DESC").pluck().get();
    const cases: Array<[EventQuery, string, string, unknown[]]> = [];
    let filled = 0;
    for (const w of ["a", "e", "the", "test", "error", "file", "run", "ts", "g"]) {
      const text = ftsMatch(word(w)!)!;
      cases.push(
        [{ match: word(w), limit: 30 }, text, "1", []],
        [{ match: word(w), limit: 5 }, text, "1", []],
        [
          { match: word(w), providers: ["claude"], limit: 30 },
          `(${text}) AND {facets}: ("p_claude")`,
          "e.provider = ?",
          ["claude"],
        ],
        [
          { match: word(w), types: ["tool_call"], tool: "Bash", limit: 30 },
          `(${text}) AND {facets}: ("k_tool_call" AND "t_bash")`,
          "e.event_type = 'tool_call' AND e.tool_name = ? COLLATE NOCASE",
          ["Bash"],
        ],
        [
          { match: word(w), types: ["error"], limit: 30 },
          `(${text}) AND {facets}: ("k_error")`,
          "e.event_type = 'error'",
          [],
        ],
        [
          { match: word(w), projects: [String(project)], limit: 30 },
          text,
          "(s.project = ? COLLATE NOCASE OR s.cwd LIKE ? ESCAPE '\\')",
          [project, `%${project}%`],
        ],
        [
          { match: word(w), since: "2025-01-01T00:00:00.000Z", limit: 30 },
          text,
          "e.timestamp >= ?",
          ["2025-01-01T00:00:00.000Z"],
        ],
      );
    }
    for (const [q, match, where, params] of cases) {
      const facetsOnly = !q.projects && !q.since;
      const expected = reference(match, where, params, q.limit, facetsOnly);
      if (expected.length === q.limit) filled++;
      expect(ids(q), `${match} where ${where} limit ${q.limit}`).toEqual(expected);
    }
    // Most cases fill their page, so the candidate bounds and the window are what is compared.
    expect(filled).toBeGreaterThan(cases.length / 2);
  });
});

describe("getting a new handle ready to rank", () => {
  it("reads the FTS size table a slice at a time to its end and maps the file, and no answer changes", () => {
    const fresh = openStore(join(dir, "idx.db"), { readonly: true });
    try {
      const asked: EventQuery[] = [
        { match: word("error"), limit: 30 },
        { match: word("test"), types: ["tool_call"], limit: 30 },
      ];
      const before = asked.map((q) => fresh.searchEvents(q).map((h) => [h.event.event_id, h.score]));
      const rows = raw.prepare("SELECT max(id) FROM events_fts_docsize").pluck().get() as number;
      let slices = 1;
      while (fresh.warmSearch!()) slices++;
      // One slice per 50,000 rows of the size table, and then nothing left to read.
      expect(slices).toBe(Math.floor(rows / 50_000) + 1);
      expect(fresh.warmSearch!()).toBe(false);
      expect(asked.map((q) => fresh.searchEvents(q).map((h) => [h.event.event_id, h.score]))).toEqual(before);
      expect(before[0]!.length).toBe(30);
    } finally {
      fresh.close();
    }
  });
});
