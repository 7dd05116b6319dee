/**
 * An evidence pack: the events a model may answer a question from, each with its event id, in the order they
 * matter (the ledger of a named session, then search hits, each followed by what it came from and the outcomes and
 * decisions beside it), deduplicated, each text clipped, and the whole bounded by a token budget. Pure: the
 * gathering (search, chains, neighbours, the brief) happens in the application layer and hands candidates in.
 */
import type { TokenCounter } from "../resume/tokens.ts";
import { cite } from "../topology/citation.ts";

/** Why an item is in the pack. */
export const PACK_REASONS = ["ledger", "hit", "chain", "outcome", "decision", "context"] as const;
export type PackReason = (typeof PACK_REASONS)[number];

export interface PackCandidate {
  event_id: string;
  session_id: string;
  /** The session id as cairn prints it (the fewest characters that name it); the whole id when absent. */
  session_short?: string;
  provider: string;
  timestamp: string | null;
  event_type: string;
  status: string | null;
  /** The event's text (or the ledger line), as much as the gatherer read; clipped here. */
  text: string;
  reason: PackReason;
  /**
   * How much of the text goes in: "full" (clipped to the per-item share, head and tail) or "line" (one line, its
   * start, with a pointer to the rest): supporting events cost a line each, so a budget holds more of them.
   */
  detail?: "full" | "line";
}

export interface PackItem extends PackCandidate {
  /** Tokens of the item as rendered into the pack. */
  tokens: number;
  /** Whether `text` was clipped to fit the per-item share. */
  clipped: boolean;
}

export interface EvidencePack {
  question: string;
  session_id: string | null;
  budget_tokens: number;
  /** Tokens of the rendered pack, exactly (at most the budget). */
  tokens: number;
  tokenizer: string;
  items: PackItem[];
  /** Candidates left out: duplicates of an earlier item, and items that did not fit the budget. */
  duplicates: number;
  over_budget: number;
}

export interface PackOptions {
  budget: number;
  counter: TokenCounter;
  sessionId?: string | null;
  /** Characters of one item's text at most; long tool output is cut to its head and tail. */
  maxItemChars?: number;
}

export const DEFAULT_PACK_BUDGET = 8000;
const DEFAULT_ITEM_CHARS = 1200;
/** Characters of a one-line item's text: what the event is and its first words. */
export const LINE_CHARS = 180;

/** Builds the pack: first occurrence of each event wins, items taken in order while they fit the budget. */
export function buildPack(question: string, candidates: readonly PackCandidate[], opts: PackOptions): EvidencePack {
  const maxChars = opts.maxItemChars ?? itemCharsFor(opts.budget);
  const header = packHeader(question);
  let tokens = opts.counter.count(header);
  const seen = new Set<string>();
  const items: PackItem[] = [];
  let duplicates = 0;
  let overBudget = 0;
  for (const c of candidates) {
    const key = c.reason === "ledger" ? `ledger:${c.event_id}:${c.text}` : c.event_id;
    if (seen.has(key) || (c.reason !== "ledger" && seen.has(`event:${c.event_id}`))) {
      duplicates++;
      continue;
    }
    seen.add(key);
    if (c.reason !== "ledger") seen.add(`event:${c.event_id}`);
    const { text, clipped } = c.detail === "line" ? oneLine(c.text) : clip(c.text, maxChars);
    const item: PackItem = { ...c, text, clipped, tokens: 0 };
    item.tokens = opts.counter.count(renderItem(item));
    if (tokens + item.tokens > opts.budget) {
      overBudget++;
      continue;
    }
    tokens += item.tokens;
    items.push(item);
  }
  const pack: EvidencePack = {
    question,
    session_id: opts.sessionId ?? null,
    budget_tokens: opts.budget,
    tokens,
    tokenizer: opts.counter.name,
    items,
    duplicates,
    over_budget: overBudget,
  };
  // pieces counted apart never count fewer tokens than joined, so the sum bounded the budget; report the exact count
  pack.tokens = opts.counter.count(renderPack(pack));
  return pack;
}

/** A small budget gets shorter items, so that it holds more of them. */
function itemCharsFor(budget: number): number {
  return Math.max(200, Math.min(DEFAULT_ITEM_CHARS, Math.floor(budget / 12)));
}

function packHeader(question: string): string {
  return `Question: ${question}\n\nEvidence (one block or line per event, cite it as [e:<id>]):\n`;
}

/**
 * One item as the model sees it: its citation and what it is on one line, then its text; a one-line item is all on
 * its line.
 */
export function renderItem(item: PackItem): string {
  const when = item.timestamp ? item.timestamp.slice(0, 16).replace("T", " ") : "no time";
  const status = item.status ? ` (${item.status})` : "";
  const what = item.reason === "ledger" ? "ledger fact" : `${item.event_type}${status}`;
  if (item.detail === "line")
    return `${cite(item.event_id)} ${when} ${what} s:${item.session_short ?? item.session_id}: ${item.text}\n`;
  return `\n${cite(item.event_id)} ${when} ${item.provider} ${what} session ${item.session_short ?? item.session_id}\n${item.text}\n`;
}

/** The whole pack as text: what `--dry-run` prints and what the model receives. */
export function renderPack(pack: EvidencePack): string {
  return packHeader(pack.question) + pack.items.map(renderItem).join("");
}

/** The start of a text on one line; when more was there, how much (the item's id says where to read it). */
function oneLine(text: string): { text: string; clipped: boolean } {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= LINE_CHARS) return { text: flat, clipped: false };
  const cut = flat.slice(0, LINE_CHARS).replace(/\s\S*$/, "");
  return { text: `${cut} […${flat.length - cut.length} more chars]`, clipped: true };
}

/** Head and tail of a long text, with the cut marked, on whole characters. */
function clip(text: string, max: number): { text: string; clipped: boolean } {
  const trimmed = text.trim();
  if (trimmed.length <= max) return { text: trimmed, clipped: false };
  const head = Math.floor(max * 0.7);
  const tail = max - head;
  const cut = trimmed.length - head - tail;
  return { text: `${trimmed.slice(0, head)}\n[… ${cut} characters cut …]\n${trimmed.slice(-tail)}`, clipped: true };
}
