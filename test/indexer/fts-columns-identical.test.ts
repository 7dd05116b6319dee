/**
 * The full-text columns the indexer writes are computed with caches of stems and identifier splits (they cost
 * most of the parse worker's time); the index they make must be the one the plain computation made. The plain
 * computation is kept here as the oracle and run on every event of the real transcripts and the agents' own
 * CLIs' transcripts, each text twice (the second time from warm caches).
 */
import { stemmer } from "stemmer";
import { describe, expect, it } from "vitest";
import { boundedText, ftsColumns, identifierParts } from "../../src/store/shared/fts-text.ts";
import { stemsOf } from "../../src/store/shared/stems.ts";
import { clientFixtures, parseFile, realFixtures } from "../helpers/transcripts.ts";

function plainIdentifierParts(text: string): string {
  const parts: string[] = [];
  const seen = new Set<string>();
  for (const m of text.matchAll(/[A-Za-z_$][A-Za-z0-9_$]{3,}/g)) {
    const id = m[0];
    if (seen.has(id) || !/._|[a-z][A-Z]|[A-Z]{2}[a-z]|[A-Za-z][0-9]+[A-Za-z]/.test(id)) continue;
    seen.add(id);
    const words = id.split(/_+/).flatMap((w) => w.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g) ?? []);
    if (words.length < 2) continue;
    parts.push(words.join(" ").toLowerCase());
    if (parts.length >= 2_000) break;
  }
  return parts.join(" \n ");
}

function plainStems(text: string): string {
  const out = new Set<string>();
  for (const m of text.toLowerCase().matchAll(/[\p{L}\p{N}_]+/gu)) {
    if (!/^\p{L}{3,}$/u.test(m[0])) continue;
    out.add(stemmer(m[0]));
    if (out.size >= 4_000) break;
  }
  return [...out].join(" ");
}

describe("full-text columns", () => {
  const files = [...realFixtures(), ...clientFixtures()];
  const events = files.flatMap((f) => parseFile(f).events);

  it("are the plain computation's, cold and warm, on every event of the real transcripts", () => {
    expect(events.length).toBeGreaterThan(1000);
    let differing = 0;
    for (const round of [1, 2]) {
      for (const ev of events) {
        const got = ftsColumns(ev);
        const text = boundedText(ev);
        if (got.idents !== plainIdentifierParts(text) || got.stems !== plainStems(text)) {
          differing++;
          if (differing === 1) expect({ round, event: ev.event_id, ...got }).toEqual({});
        }
      }
    }
    expect(differing).toBe(0);
  });

  it("stay the same when a cache is cleared partway through a text", () => {
    // More distinct words and identifiers than the caches hold: they are emptied while the text is read.
    const letters = (i: number) => {
      let s = "";
      for (let n = i + 26 * 27; n > 0; n = Math.floor(n / 26)) s += String.fromCharCode(97 + (n % 26));
      return s;
    };
    const words = Array.from({ length: 110_000 }, (_, i) => `${letters(i)}ing`);
    const text = words.join(" ");
    expect(stemsOf(text)).toBe(plainStems(text));
    const idents = words.map((w, i) => (i % 2 ? `get${w}Name` : `${w}_value`)).join(" ");
    expect(identifierParts(idents)).toBe(plainIdentifierParts(idents));
  });

  it("are the plain computation's on texts of every shape, at the limits and past the end of ASCII", () => {
    // Words and identifiers read in one pass over an ASCII text, each alone over any other: `$` inside names,
    // leading digits, capitals, letters beyond ASCII (whose lowercase can depend on their neighbours) and
    // texts with more distinct stems or identifiers than an event keeps.
    const pieces = ["a", "Z", "_", "$", "1", " ", ".", "-", "\n", "HTTP", "Server", "get", "x2y", "snake", "CASE"];
    const wide = ["é", "İ", "Σ", "ς", "ﬃ", "٣", "😀", "\ud83d", "К", "𝐀", "𐐀"];
    let seed = 7;
    const random = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
      return Math.floor((seed / 0x80000000) * n);
    };
    const texts: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      const from = i % 4 === 0 ? [...pieces, ...wide] : pieces;
      let t = "";
      for (let j = 1 + random(30); j > 0; j--) t += from[random(from.length)];
      texts.push(t);
    }
    const many = (n: number, shape: (w: string) => string) =>
      Array.from({ length: n }, (_, i) => shape(i.toString(26).replace(/\d/g, (d) => "qrstuvwxyz"[+d]!))).join(" ");
    texts.push(
      many(6_000, (w) => w.padStart(3, "k")),
      many(2_500, (w) => `get${w}Name`),
      `${many(3_000, (w) => w)} é`,
    );
    const check = (event_type: "user_message" | "tool_result", text: string) => {
      const got = ftsColumns({ event_type, text, tool_name: null, provider: "pi", status: null });
      const bounded = boundedText({ event_type, text });
      expect([got.idents, got.stems]).toEqual([plainIdentifierParts(bounded), plainStems(bounded)]);
    };
    for (const text of texts) check("user_message", text);
    // Tool output keeps its first 2,500 and last 1,500 characters: words, names and pairs cut at either edge.
    const filler = (n: number) => "ab ".repeat(n).slice(0, n);
    for (const t of texts.slice(0, 3_000))
      check("tool_result", filler(2_490 + random(20)) + t + filler(random(40)) + t + filler(1_470 + random(30)));
  });
});
