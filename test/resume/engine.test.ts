/** The engine end to end over a store: determinism, citations, budgets, --at, --step and the fallback ladder. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexPaths } from "../../src/indexer/indexer.ts";
import { citedIds, resolveCitations } from "../../src/resume/citations.ts";
import { createResumeEngine, type ResumeEngine } from "../../src/resume/engine.ts";
import { overBudget } from "../../src/resume/over-budget.ts";
import { createTokenCounter } from "../../src/resume/tokens.ts";
import { openStore } from "../../src/store/sqlite/store.ts";
import { realFixture } from "../helpers/transcripts.ts";
import { type IndexedSessions, indexSessions, PiSession } from "./session-builder.ts";
import { CORRECTION, LATEST, STORY_ID, story } from "./story.ts";

let ix: IndexedSessions;
let engine: ResumeEngine;
const counter = createTokenCounter();
const PLAIN = "0000bbbb-aaaa-4bbb-8ccc-000000000004";

beforeAll(() => {
  // A session without checkpoints, so the ladder has nothing to fall back to but the transcript.
  const plain = new PiSession(PLAIN).user(
    "Refactor src/db.ts. Never drop the users table. Always run the migrations first.",
  );
  for (let i = 0; i < 6; i++)
    plain
      .edit(`src/db${i}.ts`, `old ${i}`, `new ${i}`)
      .bash(`npm run migrate-${i}`, `error: migration ${i} failed: relation users_${i} missing`, 1);
  ix = indexSessions(story(), plain);
  engine = createResumeEngine({ store: ix.store, counter });
});
afterAll(() => ix.close());

describe("resume engine", () => {
  it("is deterministic: the same store gives the same bytes, in a fresh engine and a fresh connection", () => {
    const a = engine.brief({ sessionId: STORY_ID, budget: 1500 });
    const b = engine.brief({ sessionId: STORY_ID, budget: 1500 });
    const other = openStore(ix.db);
    try {
      const c = createResumeEngine({ store: other, counter: createTokenCounter() }).brief({
        sessionId: STORY_ID,
        budget: 1500,
      });
      expect(b.text).toBe(a.text);
      expect(c.text).toBe(a.text);
      expect(JSON.stringify(c)).toBe(JSON.stringify(a));
    } finally {
      other.close();
    }
  });

  it("every citation resolves in the store, to an event of the session at or before the cut", () => {
    const brief = engine.brief({ sessionId: STORY_ID, budget: 4000 });
    const ids = citedIds(brief.text);
    expect(ids.length).toBeGreaterThan(20);
    const { resolved, unresolved } = resolveCitations(ix.store, [...ids, ...brief.citations.map((c) => c.event_id)]);
    expect(unresolved).toEqual([]);
    const cut = ix.store.getEvent(brief.at)!;
    for (const r of resolved) {
      expect(r.session_id).toBe(STORY_ID);
      expect(r.ordinal).toBeLessThanOrEqual(cut.ordinal + 4); // the cut's own derived events
    }
    const malformed = [...brief.text.matchAll(/\[e:([^\]]*)\]/g)]
      .map((m) => m[1]!)
      .filter((x) => x !== "<id>" && !/^[0-9a-f]{16}(,[0-9a-f]{16})*$/.test(x));
    expect(malformed).toEqual([]);
    // The JSON lists every cited event once, in timeline order, with where it came from.
    expect(new Set(brief.citations.map((c) => c.event_id)).size).toBe(brief.citations.length);
    for (const id of ids) expect(brief.citations.some((c) => c.event_id === id)).toBe(true);
    expect(brief.citations[0]).toMatchObject({ source_file: ix.paths.get(STORY_ID), event_type: "user_message" });
  });

  it("--at: the brief as of an event, as if the session had ended there", () => {
    const correction = ix.store
      .sessionEvents(STORY_ID)
      .find((e) => e.text === CORRECTION && e.event_type === "user_message")!;
    const brief = engine.brief({ sessionId: STORY_ID, at: correction.event_id, budget: 4000 });
    expect(brief.at).toBe(correction.event_id);
    expect(brief.text).toContain(`as of event ${correction.event_id} (@${correction.ordinal})`);
    expect(brief.text).toMatch(new RegExp(`\\*\\*Latest request\\*\\* \\(turn 3\\): \\[e:\\w+\\]\\n {4}${CORRECTION}`));
    expect(brief.text).not.toContain(LATEST);
    expect(brief.text).not.toContain("npm run check");
    for (const c of brief.citations)
      if (c.ordinal > correction.ordinal)
        expect(ix.store.getEvent(c.event_id)!.parent_event_id).toBe(correction.event_id);
    // A unique prefix works, and a derived event cuts at the event it came from.
    expect(engine.brief({ sessionId: STORY_ID, at: correction.event_id.slice(0, 12), budget: 4000 }).at).toBe(
      correction.event_id,
    );
    const derived = ix.store.sessionEvents(STORY_ID).find((e) => e.parent_event_id === correction.event_id)!;
    expect(engine.brief({ sessionId: STORY_ID, at: derived.event_id, budget: 4000 }).at).toBe(correction.event_id);
    expect(() => engine.brief({ sessionId: STORY_ID, at: "ffffffffffffffff" })).toThrow(
      /no event matches 'ffffffffffffffff' in session/,
    );
  });

  it("--step: the brief as of that step's checkpoint, with the step in the ledger", () => {
    const [cp] = engine.checkpoints(STORY_ID);
    expect(cp).toMatchObject({ kind: "compaction", step: 1 });
    const brief = engine.brief({ sessionId: STORY_ID, step: 1, budget: 4000 });
    expect(brief.at).toBe(cp!.event_id);
    expect(brief.step).toBe(1);
    expect(brief.text).toContain(", for step 1.");
    expect(() => engine.brief({ sessionId: STORY_ID, step: 4 })).toThrow(
      /no checkpoint for step 4; the session has step 1/,
    );
  });

  it("stays within the budget and counts its tokens exactly", () => {
    const brief = engine.brief({ sessionId: STORY_ID, budget: 900, ladder: false });
    expect(brief.tokens).toBeLessThanOrEqual(900);
    expect(brief.tokens).toBe(counter.count(brief.text));
    expect(brief.tokenizer).toBe("o200k_base");
  });

  it("ladder: a brief that does not validate, even with a fuller ledger, gets the smallest larger budget that does", () => {
    const brief = engine.brief({ sessionId: STORY_ID, budget: 400 });
    // First the ledger may take more of the same budget; growth comes after.
    expect(brief.fallback.slice(0, 2).map((f) => [f.step, f.budget_tokens, f.validation.ok])).toEqual([
      ["fuller_ledger", 400, false],
      ["fuller_ledger", 400, false],
    ]);
    const steps = brief.fallback.slice(2);
    expect(steps.every((f) => f.step === "larger_budget")).toBe(true);
    expect(brief.validation.ok).toBe(true);
    expect(brief.validation.coverage).toBe(1);
    expect(brief.requested).toMatchObject({ budget_tokens: 400, validation: { ok: false } });
    // The chosen budget validates and the largest that did not is within 5 % (or 50 tokens) of it.
    const failed = Math.max(400, ...steps.filter((f) => !f.validation.ok).map((f) => f.budget_tokens));
    expect(steps.find((f) => f.budget_tokens === brief.budget_tokens)?.validation.ok).toBe(true);
    expect(brief.budget_tokens - failed).toBeGreaterThan(0);
    expect(brief.budget_tokens - failed).toBeLessThanOrEqual(Math.max(50, 0.05 * failed));
    expect(overBudget(brief)).toMatch(
      new RegExp(
        `^the brief is [\\d,]+ tokens, over the 400 asked for: at 400 it .+; ${brief.budget_tokens.toLocaleString("en-US")} is the smallest budget that validates$`,
      ),
    );
    expect(overBudget(engine.brief({ sessionId: STORY_ID, budget: 3000 }))).toBeNull();
  });

  it("ladder: with no room to grow, it falls back to the previous checkpoint and points at what came after", () => {
    const brief = engine.brief({ sessionId: STORY_ID, budget: 600, maxBudget: 600 });
    const [cp] = engine.checkpoints(STORY_ID);
    expect(brief.fallback.map((f) => [f.step, f.validation.ok])).toEqual([
      ["fuller_ledger", false],
      ["fuller_ledger", false],
      ["previous_checkpoint", true],
    ]);
    expect(brief.fallback.at(-1)!.at).toBe(cp!.event_id);
    expect(brief.at).toBe(cp!.event_id);
    expect(brief.text).toMatch(/This brief is as of the checkpoint at @\d+ \(step 1\); the session went on after it/);
    expect(brief.text).toContain(`read \`${ix.paths.get(STORY_ID)}\` lines `);
  });

  it("ladder: last, a pointer to the full transcript with its path and line range, and what is missing", () => {
    const brief = engine.brief({ sessionId: PLAIN, budget: 200, maxBudget: 200 });
    expect(brief.fallback.map((f) => f.step)).toEqual(["fuller_ledger", "fuller_ledger", "transcript_pointer"]);
    expect(brief.validation.ok).toBe(false);
    expect(brief.validation.missing.length).toBeGreaterThan(0);
    expect(brief.text).toMatch(
      new RegExp(`read \`${ix.paths.get(PLAIN)!.replace(/[.]/g, "\\.")}\` lines 2–\\d+ \\(one JSON record per line`),
    );
    expect(brief.text).toMatch(/Not in this brief: .*(constraint|open_failure|modified_file)/);
  });

  it("a real 1 MB session: within the budget by tokens and as a ratio, full coverage, no fallback", () => {
    const dir = mkdtempSync(join(tmpdir(), "cairn-resume-real-"));
    const store = openStore(join(dir, "real.db"));
    try {
      indexPaths({ store, paths: [realFixture("pi/pi-mono__large-session.jsonl")] });
      const real = createResumeEngine({ store, counter });
      const [session] = store.listSessions({});
      // At 3 % the brief keeps every must-keep fact but not 80 % of the entities, so without `ladder: false` the
      // ladder would take it to 20 %; at 10 % and above it validates as it is.
      for (const opts of [{ ratio: 0.03, ladder: false }, { ratio: 0.1 }, { budget: 20_000 }]) {
        const brief = real.brief({ sessionId: session!.session_id, ...opts });
        expect(brief.tokens).toBeLessThanOrEqual(brief.budget_tokens);
        expect(brief.fallback).toEqual([]);
        expect(brief.validation.coverage).toBe(1);
        expect(brief.validation.ok).toBe(opts.ratio !== 0.03);
        if (opts.ratio !== undefined) expect(brief.budget_tokens).toBe(Math.round(opts.ratio * brief.original_tokens));
        expect(resolveCitations(store, citedIds(brief.text)).unresolved).toEqual([]);
      }
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
