/** The user's own words: the goal (first request) and the latest requests, verbatim. */
import { typedPart, withPastePointers } from "../topology/pasted.ts";
import type { SessionEvent } from "../topology/types.ts";
import type { LedgerMessage } from "./ledger-types.ts";

/** A message the user typed (not injected context, command output or a notice). */
export function isTypedUserMessage(e: SessionEvent): boolean {
  return e.event_type === "user_message" && e.role === "user";
}

/** `/mode`, `/`, `/compact`: a slash command on its own asks for nothing the next agent should do. */
export function isBareCommand(text: string): boolean {
  return /^\/[\w:.-]*$/.test(text.trim());
}

export function isRequest(e: SessionEvent): boolean {
  return isTypedUserMessage(e) && e.text.trim() !== "" && !isBareCommand(e.text);
}

/** A follow-up too short to stand on its own ("continue", "yes.", "ok do it"). */
const SHORT_FOLLOW_UP = 60;
const MAX_LATEST = 3;

/**
 * The message in the person's words; a log or trace they pasted is named with its first error line, not quoted
 * whole: its failures are ledgered as errors and checks of their own, cited to the same message.
 */
function message(e: SessionEvent): LedgerMessage {
  const text = withPastePointers(e).trim();
  const m: LedgerMessage = { text, ordinal: e.ordinal, turn: e.turn, cites: [e.event_id] };
  if (text !== e.text.trim()) m.pastes = 1;
  return m;
}

export function goalOf(events: readonly SessionEvent[]): LedgerMessage | null {
  const first = events.find(isRequest);
  return first ? message(first) : null;
}

/**
 * The latest request, and the ones before it while each later one is a short follow-up: "continue" alone does not
 * say what to continue.
 */
export function latestRequests(events: readonly SessionEvent[]): LedgerMessage[] {
  const out: LedgerMessage[] = [];
  for (let i = events.length - 1; i >= 0 && out.length < MAX_LATEST; i--) {
    const e = events[i]!;
    if (!isRequest(e)) continue;
    out.unshift(message(e));
    if (typedPart(e).trim().length >= SHORT_FOLLOW_UP) break;
  }
  return out;
}
