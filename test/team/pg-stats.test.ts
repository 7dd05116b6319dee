/**
 * The lexeme shares a ranked RUM search reads from PostgreSQL's statistics (store/pg/stats.ts), on a connection that
 * answers with fixed rows: how a text match's share is bounded, how facets are counted, and when they are read
 * again.
 */
import { describe, expect, it } from "vitest";
import type { PgConnection } from "../../src/store/pg/bridge.ts";
import { lexemeShares, matchShare, tokensShareAny } from "../../src/store/pg/stats.ts";

function statsDb(rows: Array<{ e: string; f: number }>) {
  let reads = 0;
  const db = {
    query: () => {
      reads++;
      return rows;
    },
  } as unknown as PgConnection;
  return { db, reads: () => reads };
}

const word = (w: string) => ({ tokens: [w], idents: null });

describe("lexeme shares", () => {
  const rows = [
    { e: "not", f: 0.08 },
    { e: "found", f: 0.04 },
    { e: "git", f: 0.07 },
    { e: "k_error", f: 0.026 },
    { e: "t_bash", f: 0.17 },
    { e: "rare", f: 0.005 },
  ];

  it("bounds a match by its most selective group, and a group by the sum of its terms", () => {
    const s = lexemeShares(statsDb(rows).db)();
    expect(matchShare({ all: [[word("not")], [word("found")]], none: [] }, s)).toBeCloseTo(0.04);
    expect(matchShare({ all: [[word("not"), word("git")]], none: [] }, s)).toBeCloseTo(0.15);
    // A phrase walks its rarest word's entry; a word not among the common ones gets the rarest kept share.
    expect(matchShare({ all: [[{ tokens: ["git", "found"], idents: null }]], none: [] }, s)).toBeCloseTo(0.04);
    expect(matchShare({ all: [[word("wrapansi")]], none: [] }, s)).toBeCloseTo(0.005);
    expect(tokensShareAny(["k_error"], s)).toBeCloseTo(0.026);
    expect(tokensShareAny(["k_error", "t_bash"], s)).toBeCloseTo(0.196);
  });

  it("makes every lexeme as common as any other without statistics, so no facet looks rarer than the words", () => {
    const s = lexemeShares(statsDb([]).db)();
    expect(tokensShareAny(["k_error"], s)).toBe(1);
    expect(matchShare({ all: [[word("not")]], none: [] }, s)).toBe(1);
  });

  it("reads the statistics once, and again after ten minutes", () => {
    const stats = statsDb(rows);
    let now = 0;
    const shares = lexemeShares(stats.db, () => now);
    shares();
    now = 9 * 60_000;
    shares();
    expect(stats.reads()).toBe(1);
    now = 11 * 60_000;
    shares();
    expect(stats.reads()).toBe(2);
  });
});
