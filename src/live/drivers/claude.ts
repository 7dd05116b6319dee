/**
 * The claude driver: one long-lived Claude Agent SDK `query()` per session with streaming input (an inbox the
 * driver pushes user turns into), so the CLI starts once. Permission prompts come from `canUseTool`;
 * AskUserQuestion is routed to a question form and its answers go back as `updatedInput.answers`.
 *
 * The SDK is an optional dependency: drivers/index.ts imports this file only when `--driver claude` is
 * chosen, and explains how to install it when the import fails.
 */
import { randomUUID } from "node:crypto";
import { type CanUseTool, query, type SDKUserMessage } from "@anthropic-ai/claude-agent-sdk";
import type { Question, TurnStatus, Usage } from "../protocol.ts";
import type { DriverSession, LiveDriver, TurnContext, TurnResult } from "./types.ts";

export interface ClaudeDriverOptions {
  cwd: string;
  /** A Claude Code executable other than the SDK's own (tests point this at a fake CLI). */
  pathToClaudeCodeExecutable?: string;
  model?: string;
  env?: Record<string, string | undefined>;
}

/** An async iterable the SDK reads user messages from, one per turn. */
function createInbox() {
  const queued: SDKUserMessage[] = [];
  let wake: (() => void) | null = null;
  let ended = false;
  return {
    push(message: SDKUserMessage) {
      queued.push(message);
      wake?.();
    },
    end() {
      ended = true;
      wake?.();
    },
    async *[Symbol.asyncIterator](): AsyncGenerator<SDKUserMessage> {
      for (;;) {
        while (queued.length > 0) yield queued.shift()!;
        if (ended) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = null;
      }
    },
  };
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null;

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((b) => (isObject(b) && typeof b["text"] === "string" ? b["text"] : "")).join("");
}

interface PendingTurn {
  context: TurnContext;
  resolve: (result: TurnResult) => void;
  reject: (error: Error) => void;
  /** Assistant message ids whose text arrived as stream deltas (their final copy is not re-sent). */
  streamed: Set<string>;
  streamingId: string | null;
}

export function createClaudeDriver(options: ClaudeDriverOptions): LiveDriver {
  return {
    name: "claude",
    cwd: options.cwd,
    async open(o = {}) {
      const sessionId = o.resumeSessionId ?? randomUUID();
      const inbox = createInbox();
      let turn: PendingTurn | null = null;
      let model: string | null = options.model ?? null;
      let closed = false;

      const canUseTool: CanUseTool = async (toolName, input, permission) => {
        const t = turn;
        if (!t) return { behavior: "deny", message: "no viewport turn is running to approve this call" };
        if (toolName === "AskUserQuestion") {
          const questions = (Array.isArray(input["questions"]) ? input["questions"] : []) as Question[];
          const outcome = await t.context.requestPrompt(
            { kind: "ask_user_question", toolName, input, toolUseId: permission.toolUseID, questions },
            { signal: permission.signal },
          );
          if (outcome.resolution === "answered" && outcome.response.kind === "ask_user_question") {
            return { behavior: "allow", updatedInput: { ...input, answers: outcome.response.answers } };
          }
          return { behavior: "deny", message: `the question was ${outcome.resolution}` };
        }
        const outcome = await t.context.requestPrompt(
          {
            kind: "tool_permission",
            toolName,
            input,
            toolUseId: permission.toolUseID,
            ...(permission.agentID ? { agentId: permission.agentID } : {}),
            ...(permission.title ? { title: permission.title } : {}),
            ...(permission.defaultToNo ? { defaultToNo: true } : {}),
          },
          { signal: permission.signal },
        );
        if (outcome.resolution !== "answered") {
          return { behavior: "deny", message: `the permission prompt was ${outcome.resolution}` };
        }
        if (outcome.response.kind === "tool_permission" && outcome.response.allow) {
          return { behavior: "allow", updatedInput: input };
        }
        const why =
          outcome.response.kind === "tool_permission" && outcome.response.message
            ? `: ${outcome.response.message}`
            : "";
        return { behavior: "deny", message: `denied by the user${why}` };
      };

      const q = query({
        prompt: inbox,
        options: {
          cwd: options.cwd,
          // Never let the SDK pick 'auto' or skip prompts: the viewport is the human gate.
          permissionMode: "default",
          includePartialMessages: true,
          canUseTool,
          ...(o.resumeSessionId ? { resume: o.resumeSessionId } : { sessionId }),
          ...(options.pathToClaudeCodeExecutable
            ? { pathToClaudeCodeExecutable: options.pathToClaudeCodeExecutable }
            : {}),
          ...(options.model ? { model: options.model } : {}),
          ...(options.env ? { env: options.env } : {}),
        },
      });

      const finish = (t: PendingTurn, message: Json): void => {
        const subtype = String(message["subtype"] ?? "");
        const usage: Usage = {};
        const raw = isObject(message["usage"]) ? message["usage"] : {};
        if (typeof raw["input_tokens"] === "number") usage.inputTokens = raw["input_tokens"];
        if (typeof raw["output_tokens"] === "number") usage.outputTokens = raw["output_tokens"];
        if (typeof message["total_cost_usd"] === "number") usage.costUsd = message["total_cost_usd"];
        let status: TurnStatus = subtype === "success" ? "completed" : "failed";
        if (t.context.signal.aborted) status = "interrupted";
        if (status === "failed") {
          const errors = Array.isArray(message["errors"]) ? message["errors"].join("; ") : "";
          t.context.emit({
            type: "error",
            code: subtype || "claude_error",
            message: errors || `Claude Code ended the turn: ${subtype}`,
          });
        }
        if (t.streamingId) t.context.emit({ type: "response_end", messageId: t.streamingId, status });
        turn = null;
        t.resolve(Object.keys(usage).length > 0 ? { status, usage } : { status });
      };

      const route = (t: PendingTurn, message: Json): void => {
        const ctx = t.context;
        const parent = typeof message["parent_tool_use_id"] === "string" ? message["parent_tool_use_id"] : undefined;
        switch (message["type"]) {
          case "system":
            if (message["subtype"] === "init") {
              if (typeof message["model"] === "string") model = message["model"];
              if (message["session_id"] !== sessionId) {
                ctx.emit({
                  type: "error",
                  code: "session_mismatch",
                  message: `Claude Code reported session ${String(message["session_id"])}, expected ${sessionId}`,
                });
              }
            }
            return;
          case "stream_event": {
            const event = isObject(message["event"]) ? message["event"] : {};
            if (parent) return; // subagent text stays inside its tool card
            if (event["type"] === "message_start") {
              const m = isObject(event["message"]) ? event["message"] : {};
              t.streamingId = typeof m["id"] === "string" ? m["id"] : randomUUID();
              ctx.emit({ type: "response_start", messageId: t.streamingId });
            } else if (event["type"] === "content_block_delta" && t.streamingId) {
              const delta = isObject(event["delta"]) ? event["delta"] : {};
              if (delta["type"] === "text_delta" && typeof delta["text"] === "string") {
                t.streamed.add(t.streamingId);
                ctx.emit({ type: "response_chunk", messageId: t.streamingId, delta: delta["text"] });
              }
            } else if (event["type"] === "message_stop" && t.streamingId) {
              ctx.emit({ type: "response_end", messageId: t.streamingId, status: "completed" });
              t.streamingId = null;
            }
            return;
          }
          case "assistant": {
            const m = isObject(message["message"]) ? message["message"] : {};
            const id = typeof m["id"] === "string" ? m["id"] : randomUUID();
            const blocks = Array.isArray(m["content"]) ? m["content"].filter(isObject) : [];
            const text = textOf(blocks.filter((b) => b["type"] === "text"));
            if (text && !parent && !t.streamed.has(id)) {
              ctx.emit({ type: "response_chunk", messageId: id, delta: text });
              ctx.emit({ type: "response_end", messageId: id, status: "completed" });
            }
            for (const block of blocks) {
              if (block["type"] !== "tool_use" || typeof block["id"] !== "string") continue;
              ctx.emit({
                type: "tool_start",
                toolUseId: block["id"],
                toolName: String(block["name"] ?? "tool"),
                ...(parent ? { parentToolUseId: parent } : {}),
              });
              ctx.emit({ type: "tool_input", toolUseId: block["id"], input: block["input"] ?? {} });
            }
            return;
          }
          case "user": {
            const m = isObject(message["message"]) ? message["message"] : {};
            const blocks = Array.isArray(m["content"]) ? m["content"].filter(isObject) : [];
            for (const block of blocks) {
              if (block["type"] !== "tool_result" || typeof block["tool_use_id"] !== "string") continue;
              ctx.emit({
                type: "tool_end",
                toolUseId: block["tool_use_id"],
                output: textOf(block["content"]),
                isError: block["is_error"] === true,
              });
            }
            return;
          }
          case "result":
            finish(t, message);
            return;
          default:
            return;
        }
      };

      // One loop drains the SDK for the whole session; it never waits on a viewport.
      // (A function, not the variable: TypeScript cannot see that callbacks reassign `turn` during the loop.)
      const running = (): PendingTurn | null => turn;
      const pump = (async () => {
        try {
          for await (const message of q) {
            const t = running();
            if (t && isObject(message)) route(t, message);
          }
          running()?.reject(new Error("Claude Code ended the session"));
        } catch (error) {
          running()?.reject(error instanceof Error ? error : new Error(String(error)));
        } finally {
          turn = null;
          closed = true;
        }
      })();

      const session: DriverSession = {
        sessionId,
        get model() {
          return model;
        },
        get ended() {
          return closed;
        },
        runTurn(text, context) {
          if (closed) return Promise.reject(new Error("the Claude Code session has ended"));
          return new Promise<TurnResult>((resolve, reject) => {
            turn = { context, resolve, reject, streamed: new Set(), streamingId: null };
            inbox.push({ type: "user", message: { role: "user", content: text }, parent_tool_use_id: null });
          });
        },
        async interrupt() {
          if (!closed) await q.interrupt();
        },
        async close() {
          if (closed) return;
          inbox.end();
          q.close();
          await pump;
        },
      };
      return session;
    },
  };
}
