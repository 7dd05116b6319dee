/**
 * Hybrid search over the real transcripts with the default embedder: meaning finds what words cannot, filters
 * and exclusions hold for both, every hit says why it matched, and a failing embedder leaves words working.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStaticEmbedder } from "../../src/embedders/static.ts";
import type { Embedder } from "../../src/embedders/types.ts";
import { indexPaths } from "../../src/indexer/indexer.ts";
import { searchHybrid } from "../../src/search/hybrid.ts";
import { search } from "../../src/search/search.ts";
import { refreshVectors } from "../../src/search/vectors.ts";
import { openStore } from "../../src/store/sqlite/store.ts";
import type { Store } from "../../src/store/types.ts";
import { realFixturesDir } from "../helpers/transcripts.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-hybrid-"));
let store: Store;
const embedder = createStaticEmbedder();
beforeAll(async () => {
  store = openStore(join(dir, "idx.db"));
  indexPaths({ store, paths: [realFixturesDir()] });
  await refreshVectors(store, embedder);
});
afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});
const text = (id: string) => store.getEvent(id)!.text;

describe("hybrid search", () => {
  it("finds by meaning what shares no word with the query", async () => {
    // pi: the user asked for `sleep 5` in bash and the run was aborted
    const q = "that brief pause I requested in the shell which got interrupted";
    const hybrid = await searchHybrid(store, q, { embedder, limit: 5 });
    expect(hybrid.mode).toBe("hybrid");
    const found = hybrid.hits.find((h) => /sleep 5/.test(text(h.event_id)));
    expect(found).toBeDefined();
    expect(found!.signals.map((s) => s.source)).toContain("meaning");
    // how it matched, in plain words; the ranks and similarity only when asked for
    expect(found!.why).toBe("meaning");
    const explained = await searchHybrid(store, q, { embedder, limit: 5, explain: true });
    expect(explained.hits.find((h) => h.event_id === found!.event_id)!.why).toMatch(/^meaning #\d+ \(0\.\d\d\)$/);
    const words = await searchHybrid(store, q, { embedder, mode: "lexical", limit: 10 });
    expect(words.hits.some((h) => /sleep 5/.test(text(h.event_id)))).toBe(false);
  });

  it("when events hold every word of the query, words alone rank them", async () => {
    const q = "ignoreUnlistedDependencies";
    const words = await searchHybrid(store, q, { embedder, mode: "lexical", limit: 5 });
    const hybrid = await searchHybrid(store, q, { embedder, limit: 5 });
    expect(hybrid.mode).toBe("hybrid");
    expect(hybrid.hits.map((h) => h.event_id)).toEqual(words.hits.map((h) => h.event_id));
    // meaning still says where it would have put them
    expect(hybrid.hits.some((h) => h.signals.some((s) => s.source === "meaning"))).toBe(true);
  });

  it("prefixes and filters hold for the hits found by meaning", async () => {
    const errors = await searchHybrid(store, "error: the upload was refused by the server", { embedder, limit: 20 });
    expect(errors.hits.length).toBeGreaterThan(0);
    expect(errors.hits.every((h) => h.event_type === "error")).toBe(true);
    const codex = await searchHybrid(store, "the interpreter could not be found provider:codex", {
      embedder,
      limit: 20,
    });
    expect(codex.hits.length).toBeGreaterThan(0);
    expect(codex.hits.every((h) => h.provider === "codex")).toBe(true);
    const meaningOnly = await searchHybrid(store, "color palette for the dark theme", {
      embedder,
      mode: "vector",
      limit: 20,
    });
    expect(meaningOnly.hits.length).toBeGreaterThan(0);
    expect(meaningOnly.hits.every((h) => h.signals.length === 1 && h.signals[0]!.source === "meaning")).toBe(true);
    const without = await searchHybrid(store, "color palette for the dark theme -json", {
      embedder,
      mode: "vector",
      limit: 20,
    });
    expect(without.hits.every((h) => !/json/i.test(text(h.event_id)))).toBe(true);
  });

  it("falls back to words when the embedder fails, and says so", async () => {
    const broken: Embedder = {
      id: embedder.id,
      dimension: embedder.dimension,
      embed: async () => {
        throw new Error("model server unreachable");
      },
    };
    const q = "chalk usages in tui-renderer";
    const result = await searchHybrid(store, q, { embedder: broken, limit: 10 });
    expect(result.mode).toBe("lexical");
    expect(result.notice).toMatch(/model server unreachable.*words only/);
    expect(result.hits.map((h) => h.event_id)).toEqual(search(store, q, { limit: 10 }).hits.map((h) => h.event_id));
    expect(result.hits.every((h) => h.why.startsWith("words") || h.why.startsWith("some words"))).toBe(true);
  });

  it("vectors from another embedder are never compared with this one's queries", async () => {
    const other: Embedder = { ...embedder, id: "static:some-other-table" };
    const result = await searchHybrid(store, "the shell was interrupted", { embedder: other, limit: 5 });
    expect(result.mode).toBe("lexical");
    expect(result.notice).toMatch(/no vectors from static:some-other-table/);
  });

  it("filter-only queries are listed newest first, without meaning", async () => {
    const result = await searchHybrid(store, "kind:error provider:pi", { embedder, limit: 5 });
    expect(result.mode).toBe("lexical");
    expect(result.notice).toBeNull();
    const times = result.hits.map((h) => h.timestamp ?? "");
    expect([...times].sort().reverse()).toEqual(times);
  });
});
