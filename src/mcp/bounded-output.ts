/**
 * Bounds on what a tool returns. An agent pays for every character of a tool result in its context window, and
 * clients cut long results without saying where, so each tool fits its answer under a budget itself and says what
 * it left out and which call gets the rest. A result has two channels — readable text and structured content —
 * and clients pass one or the other to the model, so each is bounded on its own.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** Largest text, and largest serialized structured content, of one tool result (about 5k tokens each). */
export const MAX_RESPONSE_CHARS = 20_000;
/** Room kept for a result's header and notes around its list of items. */
export const FRAME_CHARS = 1_500;

/** What a tool produces before it becomes an MCP result. */
export interface ToolOutput {
  text: string;
  structured: Record<string, unknown>;
}

import { clip } from "../app/text.ts";

export { clip, oneLine } from "../app/text.ts";

export function jsonSize(value: unknown): number {
  return JSON.stringify(value).length;
}

export interface ItemSize {
  text: number;
  json: number;
}

export interface Budget {
  text: number;
  json: number;
}

/** The budget left for a list of items once a frame of the given sizes is accounted for. */
export function listBudget(frame: Partial<ItemSize> = {}): Budget {
  return {
    text: MAX_RESPONSE_CHARS - FRAME_CHARS - (frame.text ?? 0),
    json: MAX_RESPONSE_CHARS - FRAME_CHARS - (frame.json ?? 0),
  };
}

/**
 * The longest run of items around `anchor` whose text and JSON both fit the budget: it starts with the anchor
 * (kept even when it alone is too big, so an answer is never empty) and grows one item at a time, after and then
 * before it in turn, until neither side fits. Anchor 0 keeps a prefix, the last index a suffix.
 */
export function fitRange(sizes: readonly ItemSize[], anchor: number, budget: Budget): { start: number; end: number } {
  if (sizes.length === 0) return { start: 0, end: 0 };
  const at = Math.min(Math.max(0, anchor), sizes.length - 1);
  let start = at;
  let end = at + 1;
  let text = sizes[at]!.text;
  let json = sizes[at]!.json;
  const fits = (i: number) => text + sizes[i]!.text <= budget.text && json + sizes[i]!.json <= budget.json;
  const take = (i: number) => {
    text += sizes[i]!.text;
    json += sizes[i]!.json;
  };
  for (;;) {
    const after = end < sizes.length && fits(end);
    if (after) take(end++);
    const before = start > 0 && fits(start - 1);
    if (before) take(--start);
    if (!after && !before) return { start, end };
  }
}

/** A successful result: both channels, each cut to the bound as a last resort (tools fit themselves first). */
export function toolResult(out: ToolOutput): CallToolResult {
  // The answers it is made of passed the app's shaping step: redacted before they were cut, made inert for a
  // terminal. This only bounds the size.
  const { text, cut } = clip(out.text, MAX_RESPONSE_CHARS);
  return {
    content: [{ type: "text", text: cut > 0 ? `${text}\n… [${cut} more characters cut]` : text }],
    structuredContent: out.structured,
  };
}

/** A failure the agent can act on: the message, flagged as an error, never a protocol-level failure. */
export function toolError(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}
