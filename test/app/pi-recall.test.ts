/** pi's recall tool searches the way `cairn search` does: the same hybrid hits, in the same order, for one index. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStaticEmbedder, indexPaths, openStore, refreshVectors } from "../../src/index.ts";
import { createIndexSources } from "../../src/pi/index-sources.ts";
import { cairn } from "../helpers/cli.ts";
import { realFixturesDir } from "../helpers/transcripts.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-recall-"));
const db = join(dir, "cairn.db");

beforeAll(async () => {
  const store = openStore(db);
  try {
    indexPaths({ store, paths: [realFixturesDir()], parallel: false });
    await refreshVectors(store, createStaticEmbedder());
  } finally {
    store.close();
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("pi recall and cairn search", () => {
  const recall = createIndexSources({ dbPath: db, env: { HOME: dir }, background: false }).recall;

  for (const query of ["error: TS2554", "why did the theme colors break the build", "decision: sqlite"]) {
    it(`return the same hits for ${JSON.stringify(query)}`, async () => {
      const r = cairn(["search", query, "--limit", "10", "--db", db, "--json"], { env: { HOME: dir } });
      expect(r.stderr).toBe("");
      const out = JSON.parse(r.stdout) as {
        mode: string;
        hits: Array<{ event_id: string; evidence: { event_id: string }[]; signals: { source: string }[] }>;
      };
      const { hits } = await recall.search({ query, limit: 10, cwd: dir });
      expect(hits.map((h) => h.eventId)).toEqual(out.hits.map((h) => h.event_id));
      expect(hits.map((h) => h.evidence)).toEqual(out.hits.map((h) => h.evidence.map((l) => l.event_id)));
      expect(out.mode).toBe("hybrid");
    });
  }

  it("meaning takes part: a question in other words is ranked with the vectors, in both", async () => {
    const r = cairn(["search", "why did the theme colors break the build", "--db", db, "--json"], {
      env: { HOME: dir },
    });
    const out = JSON.parse(r.stdout) as { hits: Array<{ signals: { source: string }[] }> };
    expect(out.hits.some((h) => h.signals.some((s) => s.source === "meaning"))).toBe(true);
  });
});
