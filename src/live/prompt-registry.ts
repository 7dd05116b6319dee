/**
 * Open prompts and how each one ends. A prompt goes from pending to exactly one of answered, cancelled,
 * expired or superseded, through the single `settle` below; the first writer wins. Settled prompts leave a
 * tombstone, so a late answer from a second tab is told `already_resolved` (who won, how) and not `not_found`.
 */
import type {
  PendingPrompt,
  PromptKind,
  PromptResolution,
  PromptResponse,
  Question,
  SessionEvent,
} from "./protocol.ts";

export interface PromptRequest {
  kind: PromptKind;
  toolName: string;
  input: unknown;
  toolUseId?: string;
  agentId?: string;
  questions?: Question[];
  title?: string;
  defaultToNo?: boolean;
}

export type PromptOutcome =
  | { resolution: "answered"; response: PromptResponse; byViewport?: string }
  | { resolution: Exclude<PromptResolution, "answered"> };

export type AnswerResult =
  | { ok: true; promptId: string }
  | {
      ok: false;
      code: "not_found" | "already_resolved" | "invalid";
      message: string;
      resolution?: PromptResolution;
      byViewport?: string;
    };

export interface PromptRegistryOptions {
  /** No timeout when null (the default): a prompt waits until answered, cancelled or superseded. */
  timeoutMs: number | null;
  tombstoneLimit: number;
  tombstoneTtlMs: number;
  now: () => number;
  newId: () => string;
  emit: (event: SessionEvent, turnId: string) => void;
}

interface OpenEntry {
  prompt: PendingPrompt;
  resolve: (outcome: PromptOutcome) => void;
  detach: () => void;
}

interface Tombstone {
  resolution: PromptResolution;
  byViewport?: string;
  at: number;
}

export interface PromptRegistry {
  open(turnId: string, request: PromptRequest, signal?: AbortSignal): Promise<PromptOutcome>;
  answer(promptId: string, response: PromptResponse, viewportId: string): AnswerResult;
  /** Settles every open prompt (or those `which` selects), in creation order. */
  cancelAll(resolution: Exclude<PromptResolution, "answered">, which?: (p: PendingPrompt) => boolean): void;
  list(): PendingPrompt[];
  has(promptId: string): boolean;
}

export function createPromptRegistry(options: PromptRegistryOptions): PromptRegistry {
  const open = new Map<string, OpenEntry>();
  const tombstones = new Map<string, Tombstone>();

  const remember = (id: string, stone: Tombstone): void => {
    tombstones.set(id, stone);
    for (const [key, value] of tombstones) {
      if (tombstones.size <= options.tombstoneLimit && stone.at - value.at <= options.tombstoneTtlMs) break;
      tombstones.delete(key);
    }
  };

  const settle = (id: string, outcome: PromptOutcome): boolean => {
    const entry = open.get(id);
    if (!entry) return false;
    open.delete(id);
    entry.detach();
    const byViewport = outcome.resolution === "answered" ? outcome.byViewport : undefined;
    remember(id, { resolution: outcome.resolution, at: options.now(), ...(byViewport ? { byViewport } : {}) });
    entry.resolve(outcome);
    const event: SessionEvent = { type: "prompt_resolved", promptId: id, resolution: outcome.resolution };
    if (byViewport) event.byViewport = byViewport;
    if (outcome.resolution === "answered" && outcome.response.kind === "tool_permission") {
      event.decision = outcome.response.allow ? "allow" : "deny";
    }
    options.emit(event, entry.prompt.turnId);
    return true;
  };

  return {
    open(turnId, request, signal) {
      const id = options.newId();
      const createdAt = options.now();
      const prompt: PendingPrompt = {
        id,
        kind: request.kind,
        turnId,
        toolName: request.toolName,
        input: request.input,
        createdAt,
      };
      if (request.toolUseId) prompt.toolUseId = request.toolUseId;
      if (request.agentId) prompt.agentId = request.agentId;
      if (request.questions) prompt.questions = request.questions;
      if (request.title) prompt.title = request.title;
      if (request.defaultToNo) prompt.defaultToNo = true;
      if (options.timeoutMs !== null) prompt.expiresAt = createdAt + options.timeoutMs;

      return new Promise<PromptOutcome>((resolve) => {
        if (signal?.aborted) {
          resolve({ resolution: "cancelled" });
          return;
        }
        const onAbort = (): void => void settle(id, { resolution: "cancelled" });
        const timer =
          options.timeoutMs === null
            ? undefined
            : setTimeout(() => settle(id, { resolution: "expired" }), options.timeoutMs);
        timer?.unref?.();
        signal?.addEventListener("abort", onAbort, { once: true });
        open.set(id, {
          prompt,
          resolve,
          detach: () => {
            if (timer) clearTimeout(timer);
            signal?.removeEventListener("abort", onAbort);
          },
        });
        options.emit({ type: "prompt_pending", prompt }, turnId);
      });
    },

    answer(promptId, response, viewportId) {
      const entry = open.get(promptId);
      if (!entry) {
        const stone = tombstones.get(promptId);
        if (!stone) return { ok: false, code: "not_found", message: `no prompt ${promptId}` };
        return {
          ok: false,
          code: "already_resolved",
          message: `prompt ${promptId} was already ${stone.resolution}`,
          resolution: stone.resolution,
          ...(stone.byViewport ? { byViewport: stone.byViewport } : {}),
        };
      }
      if (entry.prompt.kind !== response.kind) {
        return {
          ok: false,
          code: "invalid",
          message: `prompt ${promptId} is a ${entry.prompt.kind}, not ${response.kind}`,
        };
      }
      settle(promptId, { resolution: "answered", response, byViewport: viewportId });
      return { ok: true, promptId };
    },

    cancelAll(resolution, which) {
      for (const [id, entry] of [...open]) if (!which || which(entry.prompt)) settle(id, { resolution });
    },

    list() {
      return [...open.values()].map((e) => e.prompt);
    },

    has(promptId) {
      return open.has(promptId);
    },
  };
}
