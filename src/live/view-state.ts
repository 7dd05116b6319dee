/**
 * The one reducer from events to what a viewport shows. The controller runs it to keep the snapshot it sends
 * to late subscribers; the web page runs the same code on the envelopes it receives, so a reloaded tab and a
 * tab that watched the whole stream end in the same state.
 *
 * Pure except that it mutates the view it is given (the server applies thousands of chunks per second).
 * It must stay free of Node and DOM imports: web/ compiles it.
 */
import type { LiveView, SessionEvent, TranscriptItem } from "./protocol.ts";

export interface ViewLimits {
  /** Items kept in `transcript`; older ones are dropped and counted in `droppedItems`. */
  maxItems: number;
  /** Characters kept per assistant message. */
  maxTextChars: number;
  /** Characters kept per tool input or output (serialized); tool output can be huge and is in the log anyway. */
  maxPayloadChars: number;
}

export const DEFAULT_VIEW_LIMITS: ViewLimits = { maxItems: 500, maxTextChars: 200_000, maxPayloadChars: 16_000 };

export function createEmptyView(): LiveView {
  return {
    sessionId: null,
    driver: null,
    model: null,
    cwd: null,
    turnId: null,
    usage: {},
    transcript: [],
    droppedItems: 0,
    openPrompts: [],
  };
}

type AssistantItem = Extract<TranscriptItem, { kind: "assistant" }>;
type ToolItem = Extract<TranscriptItem, { kind: "tool" }>;

function findFromEnd<T extends TranscriptItem>(
  view: LiveView,
  match: (item: TranscriptItem) => item is T,
): T | undefined {
  for (let i = view.transcript.length - 1; i >= 0; i--) {
    const item = view.transcript[i]!;
    if (match(item)) return item;
  }
  return undefined;
}

function push(view: LiveView, item: TranscriptItem, limits: ViewLimits): void {
  view.transcript.push(item);
  const excess = view.transcript.length - limits.maxItems;
  if (excess > 0) {
    view.transcript.splice(0, excess);
    view.droppedItems += excess;
  }
}

function assistant(view: LiveView, messageId: string): AssistantItem | undefined {
  return findFromEnd(view, (i): i is AssistantItem => i.kind === "assistant" && i.messageId === messageId);
}

function tool(view: LiveView, toolUseId: string): ToolItem | undefined {
  return findFromEnd(view, (i): i is ToolItem => i.kind === "tool" && i.toolUseId === toolUseId);
}

function addUsage(view: LiveView, usage: LiveView["usage"] | undefined): void {
  if (!usage) return;
  for (const key of ["inputTokens", "outputTokens", "totalTokens", "costUsd"] as const) {
    const value = usage[key];
    if (typeof value === "number") view.usage[key] = (view.usage[key] ?? 0) + value;
  }
}

/**
 * Bounds a tool payload for display. Objects keep their shape (a page shows an edit's `old`/`new` as a diff,
 * a write's `content` with its line count): long strings inside are cut, and only a payload that stays too
 * big once they are cut becomes a string.
 */
function boundPayload(value: unknown, limits: ViewLimits): unknown {
  const max = limits.maxPayloadChars;
  if (typeof value === "string") return value.length > max ? `${value.slice(0, max)}…` : value;
  if (value === undefined || value === null || typeof value !== "object") return value;
  const text = JSON.stringify(value);
  if (text === undefined || text.length <= max) return value;
  const cut = cutStrings(value, Math.max(200, Math.floor(max / 2)), 0);
  const again = JSON.stringify(cut);
  return again !== undefined && again.length <= max * 2 ? cut : `${text.slice(0, max)}…`;
}

function cutStrings(value: unknown, max: number, depth: number): unknown {
  if (typeof value === "string") return value.length > max ? `${value.slice(0, max)}…` : value;
  if (value === null || typeof value !== "object" || depth > 4) return value;
  if (Array.isArray(value)) return value.slice(0, 200).map((v) => cutStrings(v, max, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value).slice(0, 100)) out[k] = cutStrings(v, max, depth + 1);
  return out;
}

export function applyEvent(
  view: LiveView,
  event: SessionEvent,
  turnId: string | undefined,
  limits: ViewLimits = DEFAULT_VIEW_LIMITS,
): void {
  switch (event.type) {
    case "session_started":
      view.sessionId = event.sessionId;
      view.model = event.model;
      view.driver = event.driver;
      view.cwd = event.cwd;
      return;
    case "turn_started":
      view.turnId = event.turnId;
      push(view, { kind: "user", turnId: event.turnId, text: event.text }, limits);
      return;
    case "response_start":
      if (!assistant(view, event.messageId)) {
        push(
          view,
          { kind: "assistant", messageId: event.messageId, turnId: turnId ?? null, text: "", status: "streaming" },
          limits,
        );
      }
      return;
    case "response_chunk": {
      let item = assistant(view, event.messageId);
      if (!item) {
        item = { kind: "assistant", messageId: event.messageId, turnId: turnId ?? null, text: "", status: "streaming" };
        push(view, item, limits);
      }
      // `offset` makes a repeated or overlapping chunk harmless: only text past the current end is appended.
      const end = event.offset + event.delta.length;
      if (end > item.text.length && event.offset <= item.text.length) {
        item.text += event.delta.slice(item.text.length - event.offset);
        if (item.text.length > limits.maxTextChars) item.text = item.text.slice(0, limits.maxTextChars);
      }
      return;
    }
    case "response_end": {
      const item = assistant(view, event.messageId);
      if (item) item.status = event.status;
      return;
    }
    case "tool_start":
      if (!tool(view, event.toolUseId)) {
        const item: ToolItem = {
          kind: "tool",
          toolUseId: event.toolUseId,
          turnId: turnId ?? null,
          toolName: event.toolName,
          status: "running",
        };
        if (event.parentToolUseId) item.parentToolUseId = event.parentToolUseId;
        push(view, item, limits);
      }
      return;
    case "tool_input": {
      const item = tool(view, event.toolUseId);
      if (item) item.input = boundPayload(event.input, limits);
      return;
    }
    case "tool_end": {
      const item = tool(view, event.toolUseId);
      if (item) {
        item.output = boundPayload(event.output, limits);
        item.isError = event.isError === true;
        item.status = event.isError ? "error" : "done";
      }
      return;
    }
    case "prompt_pending":
      if (!view.openPrompts.some((p) => p.id === event.prompt.id)) view.openPrompts.push(event.prompt);
      return;
    case "prompt_resolved":
      view.openPrompts = view.openPrompts.filter((p) => p.id !== event.promptId);
      return;
    case "error": {
      const notice: TranscriptItem = { kind: "notice", level: "error", text: event.message, code: event.code };
      if (event.hint) notice.hint = event.hint;
      push(view, notice, limits);
      return;
    }
    case "turn_ended":
      if (view.turnId === event.turnId) view.turnId = null;
      addUsage(view, event.usage);
      return;
    case "session_cleared":
      view.turnId = null;
      view.openPrompts = [];
      return;
  }
}
