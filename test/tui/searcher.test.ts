/**
 * The UI's searcher answers by words first and then, when no newer key has come, the same question with meaning;
 * a newer key drops the questions before it, an index without vectors is asked by words alone after saying so,
 * and the search thread's answer cache forgets everything once the index file changes.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SearchAnswer } from "../../src/app/cairn.ts";
import { AnswerCache, fileStamp } from "../../src/tui/answer-cache.ts";
import type { SearchMode } from "../../src/tui/search-run.ts";
import type { SearchBackend } from "../../src/tui/search-thread.ts";
import { Searcher, type SearchOutcome } from "../../src/tui/searcher.ts";

function answer(query: string, mode: SearchMode, notice: string | null = null): SearchAnswer {
  return { query, mode, notice, meaning_by: null, hits: [] };
}

/** A backend whose searches wait until the test answers them, in the order asked. */
function heldBackend(meaning: boolean) {
  const asked: Array<{ query: string; mode: SearchMode; answer: () => void }> = [];
  const backend: SearchBackend = {
    where: "ui thread",
    week: async () => null,
    search: (query, _limit, mode) =>
      new Promise((resolve) =>
        asked.push({
          query,
          mode,
          answer: () =>
            resolve(
              mode === "hybrid" && !meaning
                ? answer(query, "lexical", "no vectors from static yet; run 'cairn index' to add them")
                : answer(query, mode),
            ),
        }),
      ),
    threads: () => Promise.reject(new Error("not asked")),
    brief: () => Promise.reject(new Error("not asked")),
    conversation: () => Promise.reject(new Error("not asked")),
    usage: () => Promise.reject(new Error("not asked")),
    warm() {},
    close() {},
  };
  return { backend, asked };
}

/** Lets the searcher's own turns run: its next question and, with no pause, its meaning pass. */
const turn = async () => {
  // Two timer turns: an answer settles, and the timer it sets runs after the first.
  await new Promise((r) => setTimeout(r, 1));
  await new Promise((r) => setTimeout(r, 1));
};

describe("searcher", () => {
  it("shows the words' answer, then the same question ranked with meaning", async () => {
    const { backend, asked } = heldBackend(true);
    const shown: SearchOutcome[] = [];
    const s = new Searcher(
      backend,
      (o) => shown.push(o),
      () => {},
      { pauseMs: 0 },
    );
    s.ask("error: TS");
    await turn();
    expect(asked.map((a) => `${a.mode} ${a.query}`)).toEqual(["lexical error: TS"]);
    asked[0]!.answer();
    await turn();
    expect(shown.map((o) => `${o.mode} ${o.query}`)).toEqual(["lexical error: TS"]);
    expect(s.waiting).toBe(true);
    expect(asked.map((a) => `${a.mode} ${a.query}`)).toEqual(["lexical error: TS", "hybrid error: TS"]);
    asked[1]!.answer();
    await turn();
    expect(shown.map((o) => `${o.mode} ${o.query}`)).toEqual(["lexical error: TS", "hybrid error: TS"]);
    expect(s.waiting).toBe(false);
  });

  it("drops the meaning pass and older answers when newer keys come", async () => {
    const { backend, asked } = heldBackend(true);
    const shown: SearchOutcome[] = [];
    // A pause no test waits out: the meaning pass stays pending until a key replaces it.
    const s = new Searcher(
      backend,
      (o) => shown.push(o),
      () => {},
      { pauseMs: 60_000 },
    );
    s.ask("e");
    await turn();
    s.ask("er");
    s.ask("err");
    asked[0]!.answer();
    await turn();
    // "e" is answered but not shown; the next question is the latest text, by words.
    expect(shown).toEqual([]);
    expect(asked.map((a) => `${a.mode} ${a.query}`)).toEqual(["lexical e", "lexical err"]);
    asked[1]!.answer();
    await turn();
    s.ask("erro");
    await turn();
    // The meaning pass for "err" waited for a pause, and a newer key came first.
    expect(asked.map((a) => `${a.mode} ${a.query}`)).toEqual(["lexical e", "lexical err", "lexical erro"]);
    expect(shown.map((o) => `${o.mode} ${o.query}`)).toEqual(["lexical err"]);
  });

  it("asks by words alone once the index said it has no vectors, until the field opens again", async () => {
    const { backend, asked } = heldBackend(false);
    const s = new Searcher(
      backend,
      () => {},
      () => {},
      { pauseMs: 0 },
    );
    s.ask("theme");
    await turn();
    asked[0]!.answer();
    await turn();
    asked[1]!.answer();
    await turn();
    s.ask("theme s");
    await turn();
    asked[2]!.answer();
    await turn();
    expect(asked.map((a) => `${a.mode} ${a.query}`)).toEqual(["lexical theme", "hybrid theme", "lexical theme s"]);
    s.warm();
    s.ask("theme se");
    await turn();
    asked[3]!.answer();
    await turn();
    expect(asked.at(-1)).toMatchObject({ mode: "hybrid", query: "theme se" });
  });

  it("keeps answers while the index file is unchanged", () => {
    const dir = mkdtempSync(join(tmpdir(), "cairn-answer-cache-"));
    try {
      const db = join(dir, "idx.db");
      writeFileSync(db, "one");
      const cache = new AnswerCache(fileStamp(db));
      expect(cache.get("lexical 30 theme")).toBeUndefined();
      cache.set("lexical 30 theme", answer("theme", "lexical"));
      expect(cache.get("lexical 30 theme")?.query).toBe("theme");
      writeFileSync(`${db}-wal`, "a commit");
      expect(cache.get("lexical 30 theme")).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
