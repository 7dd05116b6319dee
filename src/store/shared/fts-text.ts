/**
 * What goes into the full-text index for an event: its text, bounded (tool output keeps a head and a tail), and
 * the parts of the code identifiers in it, so `parseTranscript`, `snake_case_name` and `HTTPServer` are found by
 * their words too. The tokenizer splits `dotted.names`, paths and `kebab-case` by itself and keeps `_` inside
 * tokens (`TS2304`, `snake_case` stay whole).
 */
import type { SessionEvent } from "../../topology/types.ts";
import {
  AS_IS,
  ASCII_CAPITALS,
  startStems,
  stemsOf,
  takenStems,
  takeStem,
  WIDE,
  wordClassBeyondAscii,
} from "./stems.ts";

/**
 * Tool output is mostly file contents and logs: what identifies it (the command's first lines, an error or a
 * summary at the end) sits at its edges, and the whole of it stays in the event table for `show` and briefs.
 */
const OUTPUT_HEAD = 2_500;
const OUTPUT_TAIL = 1_500;
const CALL_HEAD = 3_000;
const CALL_TAIL = 1_000;
const TEXT_HEAD = 24_000;
const TEXT_TAIL = 4_000;
const MAX_IDENT_PARTS = 2_000;

/** How much of an event's text the index keeps from its start and its end. */
function edgesOf(type: SessionEvent["event_type"]): readonly [head: number, tail: number] {
  return type === "tool_result" ? OUTPUT_EDGES : type === "tool_call" ? CALL_EDGES : TEXT_EDGES;
}
const OUTPUT_EDGES = [OUTPUT_HEAD, OUTPUT_TAIL] as const;
const CALL_EDGES = [CALL_HEAD, CALL_TAIL] as const;
const TEXT_EDGES = [TEXT_HEAD, TEXT_TAIL] as const;

export function boundedText(ev: Pick<SessionEvent, "event_type" | "text">): string {
  const [head, tail] = edgesOf(ev.event_type);
  const t = ev.text;
  return t.length <= head + tail ? t : `${t.slice(0, head)}\n…\n${t.slice(-tail)}`;
}

/** Compound identifiers only: an inner `_`, a lower→upper hump, an acronym before a word, or a digit inside. */
const COMPOUND = /._|[a-z][A-Z]|[A-Z]{2}[a-z]|[A-Za-z][0-9]+[A-Za-z]/;
const HUMP = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g;

/**
 * Character classes of `[A-Za-z_$][A-Za-z0-9_$]*` below U+0080 (nothing beyond ASCII is part of an identifier):
 * a digit, a lowercase letter, a capital, `_`, `$`, or 0 for none.
 */
const DIGIT = 1;
const LOWER = 2;
const UPPER = 3;
const UNDERSCORE = 4;
const DOLLAR = 5;
const ID_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  ID_CLASS[c] = /[0-9]/.test(ch)
    ? DIGIT
    : /[a-z]/.test(ch)
      ? LOWER
      : /[A-Z]/.test(ch)
        ? UPPER
        : ch === "_"
          ? UNDERSCORE
          : ch === "$"
            ? DOLLAR
            : 0;
}

/**
 * Word parts of identifiers that the tokenizer would keep whole: `snake_case`, `camelCase`, `HTTPServer2`. The
 * identifiers (matches of `[A-Za-z_$][A-Za-z0-9_$]{3,}`: a run of identifier characters from its first non-digit, four or more long) are
 * found by their character codes, and one is cut out only when it could be a compound: one with a capital, a
 * digit or an inner `_`, which `COMPOUND` needs (plain lowercase words, most of them, never are).
 */
export function identifierParts(text: string): string {
  const parts: string[] = [];
  const seen = new Set<string>();
  const n = text.length;
  let i = 0;
  while (i < n) {
    let c = text.charCodeAt(i);
    let k = c < 128 ? ID_CLASS[c]! : 0;
    if (k === 0) {
      i++;
      continue;
    }
    while (k === DIGIT) {
      if (++i >= n) break;
      c = text.charCodeAt(i);
      k = c < 128 ? ID_CLASS[c]! : 0;
    }
    if (k === 0 || k === DIGIT) continue;
    const start = i;
    let maybeCompound = false;
    for (;;) {
      if (k === UPPER || ((k === DIGIT || k === UNDERSCORE) && i > start)) maybeCompound = true;
      if (++i >= n) break;
      c = text.charCodeAt(i);
      k = c < 128 ? ID_CLASS[c]! : 0;
      if (k === 0) break;
    }
    if (!maybeCompound || i - start < 4) continue;
    const id = text.slice(start, i);
    if (seen.has(id)) continue;
    seen.add(id);
    const split = partsOf(id);
    if (split === null) continue;
    parts.push(split);
    if (parts.length >= MAX_IDENT_PARTS) break;
  }
  return parts.join(" \n ");
}

/** Identifiers already split while indexing (the same names recur in every event); cleared when full. */
const known = new Map<string, string | null>();
const KNOWN_MAX = 100_000;

/** The lowercase words of one compound identifier, or null when it is not one. */
function partsOf(id: string): string | null {
  let split = known.get(id);
  if (split !== undefined) return split;
  split = null;
  if (COMPOUND.test(id)) {
    const words = id.split(/_+/).flatMap((w) => w.match(HUMP) ?? []);
    if (words.length >= 2) split = words.join(" ").toLowerCase();
  }
  if (known.size >= KNOWN_MAX) known.clear();
  known.set(id, split);
  return split;
}

/** A filter value as a facet token: lowercase, anything but letters, digits and `_` folded to `_`. */
export function facetToken(prefix: "k" | "t" | "p" | "s", value: string): string {
  return `${prefix}_${value.toLowerCase().replace(/[^\p{L}\p{N}_]+/gu, "_")}`;
}

export function ftsColumns(ev: Pick<SessionEvent, "event_type" | "text" | "tool_name" | "provider" | "status">): {
  text: string;
  idents: string;
  facets: string;
  stems: string;
} {
  const text = boundedText(ev);
  // Read from the event's own text (the bounded text's two parts, its cut mark being no word), left unflattened.
  const [head, tail] = edgesOf(ev.event_type);
  const t = ev.text;
  const cut = t.length > head + tail;
  const words = cut ? wordColumns(t, head, t.length - tail) : wordColumns(t, t.length, t.length);
  return {
    text,
    idents: words?.idents ?? identifierParts(text),
    facets: facetsOf(ev),
    stems: words?.stems ?? stemsOf(text),
  };
}

/**
 * `identifierParts` and `stemsOf` of `text[0, headEnd)` and `text[tailStart, end)` as one text with a
 * separator between, in one pass: the identifiers' runs (`[A-Za-z0-9_$]`) and the tokenizer's words
 * (`[\p{L}\p{N}_]`) are followed side by side, and each word is lowercased by itself. Null when the text holds
 * a letter whose lowercase depends on its neighbours or changes its length or class (then the whole text is
 * lowercased first, as the tokenizer reads it).
 */
function wordColumns(text: string, headEnd: number, tailStart: number): { idents: string; stems: string } | null {
  startStems();
  let stemsFull = false;
  const parts: string[] = [];
  const seen = new Set<string>();
  for (let part = 0; part < 2; part++) {
    const from = part === 0 ? 0 : tailStart;
    const to = part === 0 ? headEnd : text.length;
    let wordStart = -1;
    let plain = true;
    let fold = AS_IS;
    let letters = 0;
    let hash = 0;
    let runStart = -1;
    let idStart = -1;
    let maybeCompound = false;
    for (let i = from; i <= to; i++) {
      let c = 0;
      let k = 0;
      let w = 0;
      let width = 1;
      if (i < to) {
        c = text.charCodeAt(i);
        if (c < 128) {
          k = ID_CLASS[c]!;
          w = k === DOLLAR ? 0 : k === LOWER || k === UPPER ? 1 : k === 0 ? 0 : 2;
        } else {
          let cp = text.codePointAt(i)!;
          if (cp > 0xffff) {
            // A pair cut by the bound is two lone halves in the bounded text.
            if (i + 1 < to) width = 2;
            else cp = c;
          }
          w = wordClassBeyondAscii(cp);
          if (w < 0) return null;
        }
      }
      if (w !== 0) {
        if (wordStart < 0) {
          wordStart = i;
          plain = true;
          fold = AS_IS;
          letters = 0;
          hash = 0;
        }
        if (w === 2) plain = false;
        else {
          letters++;
          if (c >= 128) fold = WIDE;
          else if (c < 97 && fold === AS_IS) fold = ASCII_CAPITALS;
        }
        hash = (Math.imul(hash, 31) + (c | 32)) | 0;
      } else if (wordStart >= 0) {
        if (plain && letters >= 3 && !stemsFull) stemsFull = takeStem(text, wordStart, i, hash, fold);
        wordStart = -1;
      }
      if (k !== 0) {
        if (runStart < 0) {
          runStart = i;
          idStart = -1;
          maybeCompound = false;
        }
        // An identifier starts at its run's first non-digit; a capital, or a digit or `_` after that start, could
        // make it a compound.
        if (k === DIGIT || k === UNDERSCORE) {
          if (idStart >= 0) maybeCompound = true;
          else if (k === UNDERSCORE) idStart = i;
        } else {
          if (idStart < 0) idStart = i;
          if (k === UPPER) maybeCompound = true;
        }
      } else if (runStart >= 0) {
        runStart = -1;
        if (maybeCompound && idStart >= 0 && i - idStart >= 4 && parts.length < MAX_IDENT_PARTS) {
          const id = text.slice(idStart, i);
          if (!seen.has(id)) {
            seen.add(id);
            const split = partsOf(id);
            if (split !== null) parts.push(split);
          }
        }
      }
      // The common case, lowercase letters inside both a word and an identifier's run, read without the above.
      if (wordStart >= 0 && runStart >= 0)
        while (i + 1 < to) {
          const d = text.charCodeAt(i + 1);
          if (d < 97 || d > 122) break;
          i++;
          letters++;
          hash = (Math.imul(hash, 31) + d) | 0;
          if (idStart < 0) idStart = i;
        }
      i += width - 1;
    }
  }
  return { idents: parts.join(" \n "), stems: takenStems() };
}

/**
 * The facets column of each kind, agent, tool and status met, by those four in turn (a few hundred combinations
 * make up every event), so an event's facets are looked up rather than lowercased and folded again.
 */
let facetsKnown = new Map<string, Map<string, Map<string, Map<string, string>>>>();
let facetsCount = 0;

function under<V>(map: Map<string, Map<string, V>>, key: string): Map<string, V> {
  let inner = map.get(key);
  if (inner === undefined) {
    inner = new Map();
    map.set(key, inner);
  }
  return inner;
}

function facetsOf(ev: Pick<SessionEvent, "event_type" | "tool_name" | "provider" | "status">): string {
  const tool = ev.tool_name || "";
  const status = ev.status || "";
  const byStatus = under(under(under(facetsKnown, ev.event_type), ev.provider), tool);
  let facets = byStatus.get(status);
  if (facets === undefined) {
    const tokens = [facetToken("k", ev.event_type), facetToken("p", ev.provider)];
    if (tool) tokens.push(facetToken("t", tool));
    if (status) tokens.push(facetToken("s", status));
    facets = tokens.join(" ");
    if (++facetsCount > KNOWN_MAX) {
      facetsKnown = new Map();
      facetsCount = 0;
    } else byStatus.set(status, facets);
  }
  return facets;
}
