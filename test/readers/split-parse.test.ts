/**
 * Parsing is resumable: a file parsed in pieces, with the saved state carried through a JSON round trip between
 * them, yields exactly the topology of one full parse. Checked on every real fixture at many line boundaries.
 */

import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { linesOf } from "../../src/readers/lines.ts";
import { clientFixtures, parseLines, realFixtures } from "../helpers/transcripts.ts";

function splitPoints(n: number, k: number): number[] {
  const pts = new Set<number>();
  for (let i = 1; i < k; i++) pts.add(Math.floor((i * n) / k));
  for (const p of [1, 2, 3, n - 1, n - 2]) if (p > 0 && p < n) pts.add(p);
  return [...pts].sort((a, b) => a - b);
}

describe("split-parse equivalence", () => {
  for (const file of [...realFixtures(), ...clientFixtures()]) {
    it(file.replace(/^.*fixtures\/(real|clients)\//, ""), () => {
      const lines = linesOf(readFileSync(file, "utf8"));
      const whole = parseLines(file, lines);
      const expected = JSON.stringify(whole);
      // Two pieces at each of ~40 boundaries, spread over the file and at its edges.
      for (const at of splitPoints(lines.length, 40)) {
        const parts = parseLines(file, lines, [at]);
        expect(JSON.stringify(parts), `split before line ${at + 1}`).toBe(expected);
      }
      // Many pieces at once: every line its own batch in the first 60 lines, then random cuts.
      const every = Array.from({ length: Math.min(60, lines.length) }, (_, i) => i + 1);
      expect(JSON.stringify(parseLines(file, lines, every))).toBe(expected);
      fc.assert(
        fc.property(
          fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, lines.length - 1) }), { maxLength: 6 }),
          (cuts) => {
            expect(JSON.stringify(parseLines(file, lines, cuts))).toBe(expected);
          },
        ),
        { numRuns: 8, seed: 42 },
      );
    });
  }
});
