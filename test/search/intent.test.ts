/** "What did we decide about X" leads with decisions on X. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexPaths } from "../../src/indexer/indexer.ts";
import { searchHybrid, semanticText } from "../../src/search/hybrid.ts";
import { intentOf } from "../../src/search/intent.ts";
import { parseQuery } from "../../src/search/query.ts";
import { STOPWORDS, search } from "../../src/search/search.ts";
import { openStore } from "../../src/store/sqlite/store.ts";
import type { Store } from "../../src/store/types.ts";
import { writePiSession } from "./pi-session.ts";

const now = new Date("2026-11-24T12:00:00Z");
const dir = mkdtempSync(join(tmpdir(), "cairn-intent-"));
let store: Store;
beforeAll(() => {
  store = openStore(join(dir, "idx.db"));
  const turns = [
    { prompt: "the csv writer writer writer is slow, look at the writer", reply: "The writer flushes per row." },
    { prompt: "should the writer stream?", reply: "Decision: keep the writer synchronous, streams are not needed." },
    { prompt: "writer writer: add a header row to the writer output", reply: "Added the header row." },
  ];
  indexPaths({ store, paths: [writePiSession(dir, "intent-1", turns)] });
});
afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("question intent", () => {
  it("names decisions and keeps the subject's words", () => {
    const i = intentOf(parseQuery("what did we decide about the csv writer", now), STOPWORDS);
    expect(i?.kinds).toEqual(["decision"]);
    expect(i?.terms.map((t) => t.text)).toEqual(["csv", "writer"]);
    expect(intentOf(parseQuery("decision: writer", now), STOPWORDS)).toBeNull();
    expect(intentOf(parseQuery("csv writer", now), STOPWORDS)).toBeNull();
  });

  it("takes the asking words out of what was still failing and whether something worked", () => {
    const failing = intentOf(parseQuery("what was still failing in ci at the end", now), STOPWORDS);
    expect(failing?.name).toBe("still-failing");
    expect(failing?.words.map((t) => t.text)).toEqual(["ci"]);
    expect(failing?.recent).toBe(true);
    const crashing = intentOf(parseQuery("what was still crashing with custom themes", now), STOPWORDS);
    expect(crashing?.terms.map((t) => t.text)).toEqual(["custom", "themes"]);
    const worked = intentOf(parseQuery("did the knip check pass in the end", now), STOPWORDS);
    expect(worked?.name).toBe("end-state");
    expect(worked?.terms.map((t) => t.text)).toEqual(["knip", "check"]);
    // "check" names no check in particular: the words ranked are the subject's own and the asking ones
    expect(worked?.words.map((t) => t.text)).toEqual(["did", "the", "knip", "pass"]);
    expect(intentOf(parseQuery("did the build pass", now), STOPWORDS)?.words.map((t) => t.text)).toContain("build");
    expect(worked?.recent).toBe(true);
    expect(intentOf(parseQuery("why did the knip check fail", now), STOPWORDS)).toBeNull();
    expect(intentOf(parseQuery("the failing test", now), STOPWORDS)).toBeNull();
  });

  it("leads with the decision about the subject", () => {
    const kinds = (q: string) => search(store, q, { limit: 5, now }).hits.map((h) => h.event_type);
    expect(kinds("writer")[0]).not.toBe("decision");
    expect(kinds("what did we decide about the writer")[0]).toBe("decision");
  });

  it("puts the message that states a leading decision right after it", async () => {
    const { hits } = await searchHybrid(store, "what did we decide about the writer", {
      embedder: null,
      limit: 5,
      now,
    });
    const decision = store.getEvent(hits[0]!.event_id)!;
    expect(decision.event_type).toBe("decision");
    expect(hits[1]!.event_id).toBe(decision.parent_event_id);
    expect(store.getEvent(hits[1]!.event_id)!.text).toContain("keep the writer synchronous");
    expect(new Set(hits.map((h) => h.event_id)).size).toBe(hits.length);
  });

  it("embeds a question's subject, not its asking words", () => {
    const text = (q: string) => semanticText(parseQuery(q, now));
    expect(text("what did we decide about the footer color")).toBe("footer color");
    expect(text("what was still crashing with custom themes")).toBe("custom themes");
    // whether something worked is asked in the words its answer is put in ("it works"): they stay, stop words not
    expect(text("did the streaming fix work")).toBe("streaming fix work");
    // stop words alone mean nothing to embed ("the" was as near every bundle as any)
    expect(text("what is the")).toBe("");
    expect(text("footer color")).toBe("footer color");
  });
});
