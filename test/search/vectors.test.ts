/**
 * The semantic layer's bookkeeping over a real store: bundles built as events arrive (and dropped with them),
 * embedded incrementally, re-embedded from scratch when the embedder changes, with search working throughout.
 */
import { getEventListeners } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { indexPaths } from "../../src/indexer/indexer.ts";
import { searchHybrid } from "../../src/search/hybrid.ts";
import { buildQueuedBundles, refreshVectors } from "../../src/search/vectors.ts";
import { buildBundle } from "../../src/store/shared/bundle-text.ts";
import { openStore } from "../../src/store/sqlite/store.ts";
import type { Store } from "../../src/store/types.ts";
import { hashingEmbedder } from "./fake-embedder.ts";
import { EXPORTER_SESSION, EXPORTER_TURNS, writePiSession } from "./pi-session.ts";

const SID = EXPORTER_SESSION;
const turns = EXPORTER_TURNS;

let dir: string;
let store: Store;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "cairn-vec-"));
  store = openStore(join(dir, "idx.db"));
  writePiSession(dir, SID, turns);
  indexPaths({ store, paths: [dir] });
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const kinds = () => {
  const state = store.vectorState();
  return { bundles: state.bundles, queued: state.queued };
};

describe("bundles", () => {
  it("new events queue bundles; building them empties the queue and yields one per high-signal event", () => {
    expect(kinds().queued).toBeGreaterThan(0);
    const built = buildQueuedBundles(store);
    expect(kinds()).toEqual({ bundles: built, queued: 0 });
    const pending = store.pendingBundles(100);
    const count = (k: string) => pending.filter((b) => b.kind === k).length;
    expect(count("request")).toBe(2); // both typed prompts
    expect(count("tool")).toBe(4); // every run: a shell command is never a "quiet" read
    expect(count("error")).toBeGreaterThanOrEqual(2); // the failing test and the rejected push
    expect(count("test")).toBe(2);
    expect(count("decision")).toBe(1);
    // the first request's outcome, known once the second arrived, carries the agent's last reply to it
    expect(count("outcome")).toBe(1);
    expect(pending.find((b) => b.kind === "outcome")!.text).toMatch(/csv files[\s\S]*keep the writer synchronous/);
    // a reply of one line is not embedded; one that reports is (buildBundle's own tests)
    expect(count("reply")).toBe(0);
    const push = pending.find((b) => b.kind === "tool" && b.text.includes("git push"))!;
    expect(push.text).toContain("[rejected]");
    // building again is a no-op
    expect(buildQueuedBundles(store)).toBe(0);
  });

  it("an output far longer than any bundle shows is bundled as if read whole (the store reads only its ends)", () => {
    const middle = "x".repeat(200_000);
    const output = `  first line says alpha ü\n${middle}\nlast line says omega ü  `;
    writePiSession(dir, SID, [...turns, { prompt: "build it", runs: [{ command: "make all", output }] }]);
    indexPaths({ store, paths: [dir] });
    buildQueuedBundles(store);
    const bundle = store.pendingBundles(100).find((b) => b.kind === "tool" && b.text.includes("make all"))!;
    const result = store.sessionEvents(SID).find((e) => e.event_type === "tool_result" && e.text.includes("alpha"))!;
    const whole = buildBundle(0, result, (id) => store.getEvent(id));
    expect(whole!.text).toContain("omega ü");
    expect(bundle.text).toBe(whole!.text);
  });

  it("a rewritten file drops its old events' bundles and vectors and bundles the new ones", async () => {
    const embedder = hashingEmbedder("fake:a", 16);
    await refreshVectors(store, embedder);
    const before = store.vectorState();
    expect(before.embedded).toBe(before.bundles);
    writePiSession(dir, SID, [{ prompt: "rename the package", runs: [{ command: "npm pack", output: "ok" }] }]);
    indexPaths({ store, paths: [dir] });
    const r = await refreshVectors(store, embedder);
    const after = store.vectorState();
    expect(after.bundles).toBe(2); // the prompt and the run
    expect(after.embedded).toBe(2);
    expect(r.embedded).toBe(2);
    const [v] = await embedder.embed(["git push rejected"], "query");
    const hits = store.nearestEvents(v!, { match: null, limit: 10 });
    expect(hits.map((h) => h.event.text).join("\n")).not.toContain("git push");
  });

  it("with a session: filter, the nearest are its own bundles, as the unfiltered search ranks them", async () => {
    const other = "0d7e5b1a-4c2f-4f3e-9a6b-2c8d1e0f5a7b";
    writePiSession(dir, other, turns);
    indexPaths({ store, paths: [dir] });
    const embedder = hashingEmbedder("fake:a", 16);
    await refreshVectors(store, embedder);
    const [v] = await embedder.embed(["git push rejected"], "query");
    const all = store.nearestEvents(v!, { match: null, limit: 10_000 });
    for (const sid of [SID, other]) {
      const want = all.filter((h) => h.event.session_id === sid).map((h) => h.event.event_id);
      expect(want.length).toBeGreaterThan(3);
      for (const prefix of [sid, sid.slice(0, 6)]) {
        const got = store.nearestEvents(v!, { match: null, limit: 3, sessionPrefix: prefix });
        expect(got.map((h) => h.event.event_id)).toEqual(want.slice(0, 3));
      }
    }
    expect(store.nearestEvents(v!, { match: null, limit: 3, sessionPrefix: "ffff" })).toEqual([]);
  });

  it("a grown file bundles only its new events", async () => {
    const embedder = hashingEmbedder("fake:a", 16);
    await refreshVectors(store, embedder);
    const calls = embedder.calls;
    writePiSession(dir, SID, [
      ...turns,
      { prompt: "ship it", runs: [{ command: "npm publish", output: "+ pkg@1.0.0" }] },
    ]);
    indexPaths({ store, paths: [dir] });
    const r = await refreshVectors(store, embedder);
    // the prompt, the run, and the outcome of the request before it (known once the new prompt arrived)
    expect(r).toMatchObject({ reset: false, bundled: 3, embedded: 3 });
    expect(embedder.calls).toBe(calls + 1);
  });
});

describe("embedding", () => {
  it("embeds every bundle once, then nothing until new events arrive", async () => {
    const embedder = hashingEmbedder("fake:a", 16);
    const first = await refreshVectors(store, embedder);
    expect(first).toMatchObject({ reset: true, pending: 0, embedder: "fake:a" });
    expect(first.embedded).toBe(store.vectorState().bundles);
    const second = await refreshVectors(store, embedder);
    expect(second).toMatchObject({ bundled: 0, embedded: 0, reset: false, pending: 0 });
  });

  it("embedding under a signal (Ctrl-C) leaves nothing listening on it, so no batch's vectors stay reachable", async () => {
    const signal = new AbortController().signal;
    const r = await refreshVectors(store, hashingEmbedder("fake:a", 16), { batch: 1, signal });
    expect(r.embedded).toBeGreaterThan(3);
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });

  it("a signal that aborts while a batch is embedding stops the run and keeps what was stored", async () => {
    const controller = new AbortController();
    const inner = hashingEmbedder("fake:a", 16);
    let calls = 0;
    const embedder = {
      ...inner,
      embed: (texts: string[], as: "document" | "query", signal?: AbortSignal) => {
        if (++calls === 2) {
          controller.abort();
          return new Promise<Float32Array[]>(() => {});
        }
        return inner.embed(texts, as, signal);
      },
    };
    const r = await refreshVectors(store, embedder, { batch: 1, signal: controller.signal });
    expect(r).toMatchObject({ interrupted: true, embedded: 1 });
    expect(store.vectorState().embedded).toBe(1);
  });

  it("a new embedder re-embeds from scratch in its own dimension, and search keeps working while it catches up", async () => {
    await refreshVectors(store, hashingEmbedder("fake:a", 16));
    const b = hashingEmbedder("fake:b", 8);
    // stop after the first batch: every reading of the clock is 10 ms later, past the 5 ms budget
    let clock = -10;
    const now = () => {
      clock += 10;
      return clock;
    };
    const partial = await refreshVectors(store, b, { batch: 3, budgetMs: 5, now });
    expect(partial.reset).toBe(true);
    expect(partial.embedded).toBe(3);
    const state = store.vectorState();
    expect(state).toMatchObject({ embedder: "fake:b", dimension: 8, embedded: 3 });
    const during = await searchHybrid(store, "rejected push", { embedder: b });
    expect(during.hits.length).toBeGreaterThan(0);
    expect(during.notice).toMatch(/covers 3 of \d+ bundles/);
    const rest = await refreshVectors(store, b);
    expect(rest.pending).toBe(0);
    expect(store.vectorState()).toMatchObject({ embedder: "fake:b", dimension: 8 });
    const after = await searchHybrid(store, "rejected push", { embedder: b });
    expect(after.mode).toBe("hybrid");
    expect(after.notice).toBeNull();
  });

  it("the embedder 'none' drops the vectors and search says why meaning is not used", async () => {
    await refreshVectors(store, hashingEmbedder("fake:a", 16));
    const r = await refreshVectors(store, null);
    expect(r.reset).toBe(true);
    expect(store.vectorState().embedder).toBeNull();
    const res = await searchHybrid(store, "push rejected", { embedder: null });
    expect(res.mode).toBe("lexical");
    expect(res.notice).toMatch(/no embedder/);
  });

  it("an embedder that returns the wrong shape is an error, not a corrupt table", async () => {
    const bad = hashingEmbedder("fake:bad", 16);
    const real = bad.embed.bind(bad);
    bad.embed = async (texts, purpose) => (await real(texts, purpose)).map((v) => v.subarray(0, 5));
    await expect(refreshVectors(store, bad)).rejects.toThrow(/another shape/);
  });
});
