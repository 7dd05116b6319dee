/**
 * Selection under the budget left after the header and the ledger (resume-method §4.2):
 * 1. a verbatim recent tail, newest events back, until 35 % of what remains;
 * 2. older units greedily by score/√tokens (ties: newer first), near-duplicates skipped;
 * 3. the latest known file contents, newest first (≤ 8 files, ≤ 5k tokens each, head and tail beyond that);
 * 4. older units again with whatever the files left.
 * Costs here are estimates (characters / 4, scaled by the exact/estimate ratio measured on the ledger); `fitExactly`
 * then counts what was chosen and drops the least valuable items until the exact count fits.
 */
import type { BriefItem } from "./brief-types.ts";
import { cite, inlineCites } from "./citations.ts";
import type { FileContent } from "./file-content.ts";
import { displayPath } from "./file-states.ts";
import type { Ledger } from "./ledger-types.ts";
import { type ProfileName, priority, scoreUnit, scoringContext, trivial } from "./scoring.ts";
import type { TokenCounter } from "./tokens.ts";
import { CONTEXT_LIMITS, headTail, type RenderLimits, renderUnit, TAIL_LIMITS, type Unit } from "./units.ts";
import type { RankedSymbol } from "./working-set.ts";

export const TAIL_SHARE = 0.2;
export const TAIL_SHARE_TIGHT = 0.05;
/** Room (tokens left after the ledger) at or below which a brief is tight, and at or above which it is roomy. */
const TIGHT = 1000;
const ROOMY = 4000;
/** Share of what the tail leaves that goes to names: in a roomy brief, and in a tight one (≤ 1k tokens left). */
export const NAMES_SHARE = 0.5;
export const NAMES_SHARE_TIGHT = 0.9;
export const FILES_SHARE = 0.35;
/** Beyond this the list of names stops helping: the rest of the budget goes to the words around them. */
export const NAMES_MAX_TOKENS = 6000;
const MAX_FILES = 8;
const FILE_CAP_CHARS = 20_000; // about 5k tokens
const MIN_FILE_CHARS = 1_200;

/** A chosen item with what it costs and what it is worth, so trimming can drop the least valuable first. */
export interface Chosen extends BriefItem {
  ordinal: number;
  priority: number;
  estimate: number;
}

export interface Selection {
  context: Chosen[];
  names: Chosen[];
  /** What the names cost in selectNames' own estimates (the room a larger or smaller list is asked for in). */
  namesRoom: number;
  files: Chosen[];
  recent: Chosen[];
}

export interface SelectInput {
  units: readonly Unit[];
  ledger: Ledger;
  /** Tokens left for the selection after header, ledger and any reserve. */
  available: number;
  /** Exact / estimated tokens, measured on the ledger. */
  scale: number;
  profile: ProfileName;
  cwd: string | null;
  contents: ReadonlyMap<string, FileContent>;
  /** Units already quoted whole in the ledger (goal, latest requests). */
  quoted: ReadonlySet<string>;
  symbols: readonly RankedSymbol[];
  /** Text already in the brief (the ledger): names it mentions need no second mention. */
  shown: string;
}

function estimate(text: string, scale: number): number {
  return Math.ceil((text.length / 4) * scale) + 1;
}

function unitItem(u: Unit, text: string, pri: number, scale: number): Chosen {
  return {
    field: u.kind === "tool" ? "tool" : u.kind,
    text: `${text} ${cite(inlineCites(u.cites))}`,
    cites: u.cites,
    ordinal: u.ordinal,
    priority: pri,
    estimate: estimate(text, scale) + 12,
  };
}

function shingles(text: string): Set<string> {
  const words = text.toLowerCase().split(/\W+/).filter(Boolean);
  const out = new Set<string>();
  for (let i = 0; i + 4 <= words.length && out.size < 400; i++) out.add(words.slice(i, i + 4).join(" "));
  return out;
}

function similar(a: Set<string>, b: Set<string>): boolean {
  if (a.size === 0 || b.size === 0) return false;
  let inter = 0;
  for (const s of a) if (b.has(s)) inter++;
  return inter / (a.size + b.size - inter) >= 0.8;
}

export function select(input: SelectInput): Selection {
  const { units, scale, cwd } = input;
  const out: Selection = { context: [], names: [], namesRoom: 0, files: [], recent: [] };
  if (input.available <= 0 || units.length === 0) return out;

  // 1. The recent tail, contiguous from the newest unit back.
  // In a tight brief the names carry more of what comes next per token than the tail does (eval:resume at 3 %).
  const tailBudget = input.available * tailShare(input.available);
  let used = 0;
  const inTail = new Set<string>();
  for (let i = units.length - 1; i >= 0; i--) {
    const u = units[i]!;
    const fitted = fitUnit(u, TAIL_LIMITS[u.kind], tailBudget - used, scale, cwd);
    if (!fitted) break;
    out.recent.unshift(unitItem(u, fitted, Number.POSITIVE_INFINITY, scale));
    used += out.recent[0]!.estimate;
    inTail.add(u.id);
  }

  // 2. The names in play.
  const afterTail = input.available - used;
  const names = selectNames(input, Math.min(NAMES_MAX_TOKENS, afterTail * namesShare(afterTail)), out.recent);
  out.names = names.items;
  out.namesRoom = names.used;
  used += names.used;

  // 3. Older units by priority.
  const ctx = scoringContext(units, input.ledger, input.profile);
  const candidates: Chosen[] = [];
  units.forEach((u, i) => {
    if (inTail.has(u.id) || input.quoted.has(u.id) || trivial(u)) return;
    const text = renderUnit(u, CONTEXT_LIMITS[u.kind], cwd);
    const est = estimate(text, scale) + 12;
    candidates.push({ ...unitItem(u, text, 0, scale), priority: priority(scoreUnit(u, i, ctx), est) });
  });
  candidates.sort((a, b) => b.priority - a.priority || b.ordinal - a.ordinal);
  const rest = input.available - used;
  const fileItems = fileCandidates(input);
  const middleFirst = fileItems.length > 0 ? rest * (1 - FILES_SHARE) : rest;
  const picked = new Set<Chosen>();
  const same = new Set<string>();
  const recentPicks: Array<{ field: string; sh: Set<string> }> = [];
  let middleUsed = 0;
  const fill = (limit: number) => {
    for (const c of candidates) {
      if (picked.has(c) || middleUsed + c.estimate > limit) continue;
      // Repeats (the same command failing the same way) differ only in positions and ids.
      const key = `${c.field}\u0000${c.text.replace(/\[e:[^\]]*\]|@\d+/g, "").replace(/\d+/g, "N")}`;
      if (same.has(key)) continue;
      const sh = shingles(c.text);
      if (recentPicks.some((s) => s.field === c.field && similar(s.sh, sh))) continue;
      picked.add(c);
      same.add(key);
      recentPicks.push({ field: c.field, sh });
      if (recentPicks.length > 24) recentPicks.shift();
      middleUsed += c.estimate;
    }
  };
  fill(middleFirst);

  // 4. File contents with what is left.
  let filesUsed = 0;
  for (const f of fileItems) {
    const room = rest - middleUsed - filesUsed;
    const item = fitFile(f, room, scale);
    if (!item) continue;
    out.files.push(item);
    filesUsed += item.estimate;
  }

  // 5. Older units again with the rest.
  fill(rest - filesUsed);
  out.context = [...picked].sort((a, b) => a.ordinal - b.ordinal);
  return out;
}

/**
 * The tail's share grows with the room, from TAIL_SHARE_TIGHT in a tight brief to TAIL_SHARE in a roomy one, as the
 * names' share shrinks: a step between the two gave a brief of 1,001 tokens' room four times the tail of one of 1,000.
 */
export function tailShare(available: number): number {
  if (available <= TIGHT) return TAIL_SHARE_TIGHT;
  if (available >= ROOMY) return TAIL_SHARE;
  return TAIL_SHARE_TIGHT + ((available - TIGHT) / (ROOMY - TIGHT)) * (TAIL_SHARE - TAIL_SHARE_TIGHT);
}

/**
 * Names are the densest carrier of what comes next (identifiers, per token); in a tight brief they get a larger
 * share of what the ledger leaves, in a roomy one the words around them matter more.
 */
export function namesShare(available: number): number {
  if (available <= TIGHT) return NAMES_SHARE_TIGHT;
  if (available >= ROOMY) return NAMES_SHARE;
  return NAMES_SHARE_TIGHT + ((available - TIGHT) / (ROOMY - TIGHT)) * (NAMES_SHARE - NAMES_SHARE_TIGHT);
}

/**
 * How a names line labels its file: the file's base name when no other file among the names shares it (the ledger
 * lists the full path), else the path from the working directory.
 */
function fileLabels(symbols: readonly RankedSymbol[], cwd: string | null): (file: string | null) => string {
  const owners = new Map<string, Set<string>>();
  for (const s of symbols) {
    if (!s.file) continue;
    const base = s.file.slice(s.file.lastIndexOf("/") + 1);
    const set = owners.get(base) ?? new Set<string>();
    owners.set(base, set);
    set.add(s.file);
  }
  return (file) => {
    if (!file) return "conversation";
    const base = file.slice(file.lastIndexOf("/") + 1);
    return owners.get(base)?.size === 1 ? base : displayPath(file, cwd);
  };
}

/**
 * The best-ranked names that fit the room, grouped by the file they were last seen in. A names line carries no
 * citation: its file label says where to look, and a cite per line cost as much as three names (eval:resume at 3 %).
 */
export function selectNames(
  input: SelectInput,
  room: number,
  recent: readonly BriefItem[] = [],
): { items: Chosen[]; used: number } {
  // The ledger and the recent tail are shown verbatim: a name they spell needs no second mention.
  const shown = namesIn(recent.length > 0 ? `${input.shown}\n${recent.map((r) => r.text).join("\n")}` : input.shown);
  const groups = new Map<string, { path: string; names: RankedSymbol[]; best: number }>();
  let used = 0;
  const covered = new Set<string>();
  const label = fileLabels(input.symbols, input.cwd);
  for (const s of input.symbols) {
    // `newMessages.length` already says `newMessages`.
    if (covered.has(s.name) || shown.has(s.name)) continue;
    const key = s.file ?? "";
    let g = groups.get(key);
    const path = g?.path ?? label(s.file);
    const cost = estimate(`${s.name}, `, input.scale) + (g ? 0 : estimate(`- ${path}: `, input.scale) + 1);
    if (used + cost > room) {
      if (room - used < 8) break;
      continue;
    }
    if (!g) {
      g = { path, names: [], best: s.score };
      groups.set(key, g);
    }
    g.names.push(s);
    used += cost;
    for (const part of dottedParts(s.name)) covered.add(part);
  }
  // A name a longer one spells out (`this.bgColors` or `bgColors` beside `this.bgColors.get`) says nothing more.
  for (const g of groups.values()) g.names = g.names.filter((s) => !covered.has(s.name));
  const items = [...groups.values()]
    .filter((g) => g.names.length > 0)
    .sort((a, b) => b.best - a.best || (a.path < b.path ? -1 : 1))
    .map((g, i): Chosen => {
      const text = `- ${g.path}: ${g.names.map((s) => s.name).join(", ")}`;
      return {
        field: "names",
        text,
        cites: [],
        ordinal: 0,
        priority: 1 / (1 + i),
        estimate: estimate(text, input.scale) + 1,
      };
    });
  return { items, used };
}

/** Every name a text spells, whole (`mdCode` is not in `mdCodeBlock`) and as the parts of dotted names. */
function namesIn(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*/g)) {
    out.add(m[0]);
    if (m[0].includes(".")) for (const part of dottedParts(m[0])) out.add(part);
  }
  return out;
}

/** The shorter names a dotted name spells out: `a.b.c` gives `a`, `b`, `c`, `a.b` and `b.c`. */
function dottedParts(name: string): string[] {
  const parts = name.split(".");
  const out: string[] = [];
  for (let i = 0; i < parts.length; i++)
    for (let j = i + 1; j <= parts.length; j++) if (j - i < parts.length) out.push(parts.slice(i, j).join("."));
  return out;
}

/** A unit rendered to fit a room, with its limits halved up to three times; null when it cannot fit. */
function fitUnit(u: Unit, limits: RenderLimits, room: number, scale: number, cwd: string | null): string | null {
  let l = limits;
  for (let attempt = 0; attempt < 4; attempt++) {
    const text = renderUnit(u, l, cwd);
    if (estimate(text, scale) + 12 <= room) return text;
    l = { text: Math.floor(l.text / 2), output: Math.floor(l.output / 2) };
  }
  return null;
}

interface FileCandidate {
  content: FileContent;
  path: string;
  modified: boolean;
  priority: number;
}

function fileCandidates(input: SelectInput): FileCandidate[] {
  const out: FileCandidate[] = [];
  // Ledger files are newest first; modified files before files only read.
  const order = [...input.ledger.files.filter((f) => f.modified), ...input.ledger.files.filter((f) => !f.modified)];
  for (const f of order) {
    const content = input.contents.get(f.key);
    if (!content || content.content.trim() === "") continue;
    out.push({ content, path: f.path, modified: f.modified, priority: (f.modified ? 2 : 1) / (1 + out.length) });
    if (out.length >= MAX_FILES) break;
  }
  return out;
}

function fence(text: string): string {
  let ticks = "```";
  while (text.includes(ticks)) ticks += "`";
  return ticks;
}

function language(path: string): string {
  const ext = /\.(\w+)$/.exec(path)?.[1]?.toLowerCase() ?? "";
  const map: Record<string, string> = {
    ts: "ts",
    tsx: "tsx",
    js: "js",
    mjs: "js",
    py: "python",
    rs: "rust",
    go: "go",
    md: "markdown",
    json: "json",
    sh: "sh",
    yml: "yaml",
    yaml: "yaml",
    css: "css",
    html: "html",
    sql: "sql",
    toml: "toml",
  };
  return map[ext] ?? "";
}

function fitFile(f: FileCandidate, room: number, scale: number): Chosen | null {
  let chars = Math.min(FILE_CAP_CHARS, f.content.content.length);
  for (;;) {
    const body = headTail(f.content.content, chars, f.content.cites[f.content.cites.length - 1]!);
    const ticks = fence(body);
    const how = f.content.edits > 0 ? `, with ${f.content.edits} edit${f.content.edits === 1 ? "" : "s"} applied` : "";
    const text = `### ${f.path} (as of @${f.content.lastOrdinal}${how}) ${cite(inlineCites(f.content.cites))}\n${ticks}${language(f.path)}\n${body}\n${ticks}`;
    const est = estimate(text, scale);
    if (est <= room)
      return {
        field: "file_content",
        text,
        cites: f.content.cites,
        ordinal: f.content.lastOrdinal,
        priority: f.priority,
        estimate: est,
      };
    if (chars <= MIN_FILE_CHARS) return null;
    chars = Math.max(MIN_FILE_CHARS, Math.floor(chars * Math.min(0.5, (room / est) * 0.9)));
  }
}

/**
 * Drops the least valuable selected items until the exact count of everything fits: older context first (lowest
 * priority), then file contents (last first), then the oldest tail units. Returns the exact tokens of the items.
 */
export function fitExactly(sel: Selection, counter: TokenCounter, room: number): number {
  const total = () =>
    [...sel.context, ...sel.names, ...sel.files, ...sel.recent].reduce(
      (n, item) => n + counter.count(item.text) + 1,
      0,
    );
  let tokens = total();
  while (tokens > room) {
    if (sel.context.length > 0) {
      let worst = 0;
      for (let i = 1; i < sel.context.length; i++)
        if (sel.context[i]!.priority < sel.context[worst]!.priority) worst = i;
      tokens -= counter.count(sel.context[worst]!.text) + 1;
      sel.context.splice(worst, 1);
    } else if (sel.files.length > 0) {
      tokens -= counter.count(sel.files.pop()!.text) + 1;
    } else if (sel.names.length > 0) {
      tokens -= counter.count(sel.names.pop()!.text) + 1;
    } else if (sel.recent.length > 0) {
      tokens -= counter.count(sel.recent.shift()!.text) + 1;
    } else break;
  }
  return tokens;
}
