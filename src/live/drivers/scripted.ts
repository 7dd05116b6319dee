/**
 * The scripted driver: plays a script (or a recorded session) as if an agent were answering, with real
 * prompts that wait for the viewports. For demos, the web page's tests and the fan-out benchmark.
 */
import { randomUUID } from "node:crypto";
import type { Script, ScriptStep } from "./script-format.ts";
import type { DriverSession, LiveDriver, TurnContext, TurnResult } from "./types.ts";

export interface ScriptedDriverOptions {
  script: Script;
  cwd: string;
  /** Overrides every chunk delay (tests and benchmarks set 0). */
  chunkDelayMs?: number;
}

const DEFAULT_CHUNK_SIZE = 12;
const DEFAULT_CHUNK_DELAY_MS = 20;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

export function createScriptedDriver(options: ScriptedDriverOptions): LiveDriver {
  const { script } = options;
  let opened = 0;

  return {
    name: "scripted",
    cwd: options.cwd,
    async open(o = {}) {
      opened++;
      const sessionId = o.resumeSessionId ?? (opened === 1 && script.sessionId ? script.sessionId : randomUUID());
      let turnIndex = 0;
      let closed = false;
      let current: AbortController | null = null;

      const pickSteps = (): ScriptStep[] | null => {
        const count = script.turns.length;
        const index = turnIndex++;
        if (index < count) return script.turns[index]!.steps;
        const after = script.afterLastTurn ?? "cycle";
        if (after === "cycle") return script.turns[index % count]!.steps;
        if (after === "last") return script.turns[count - 1]!.steps;
        return null;
      };

      const streamText = async (
        text: string,
        step: Extract<ScriptStep, { type: "text" }> | null,
        ctx: TurnContext,
        signal: AbortSignal,
      ) => {
        const messageId = randomUUID();
        const size = step?.chunkSize ?? script.chunkSize ?? DEFAULT_CHUNK_SIZE;
        const delay = options.chunkDelayMs ?? step?.chunkDelayMs ?? script.chunkDelayMs ?? DEFAULT_CHUNK_DELAY_MS;
        ctx.emit({ type: "response_start", messageId });
        for (let at = 0; at < text.length; at += size) {
          if (signal.aborted) return;
          ctx.emit({ type: "response_chunk", messageId, delta: text.slice(at, at + size) });
          await sleep(delay, signal);
        }
        if (!signal.aborted) ctx.emit({ type: "response_end", messageId, status: "completed" });
      };

      const session: DriverSession = {
        sessionId,
        model: script.model ?? "scripted",
        async runTurn(_text, ctx): Promise<TurnResult> {
          if (closed) throw new Error("the scripted session is closed");
          const abort = new AbortController();
          current = abort;
          const signal = AbortSignal.any([abort.signal, ctx.signal]);
          try {
            const steps = pickSteps();
            if (!steps) {
              await streamText("(the script has no more turns)", null, ctx, signal);
              return { status: "completed" };
            }
            for (const step of steps) {
              if (signal.aborted) return { status: "interrupted" };
              switch (step.type) {
                case "text":
                  await streamText(step.text, step, ctx, signal);
                  break;
                case "wait":
                  await sleep(step.ms, signal);
                  break;
                case "error":
                  ctx.emit({ type: "error", code: step.code, message: step.message, fatal: step.fatal ?? false });
                  break;
                case "fail":
                  throw new Error(step.message);
                case "tool": {
                  const toolUseId = step.id ?? `tool_${randomUUID()}`;
                  ctx.emit({ type: "tool_start", toolUseId, toolName: step.name });
                  ctx.emit({ type: "tool_input", toolUseId, input: step.input ?? {} });
                  if (step.permission) {
                    const outcome = await ctx.requestPrompt({
                      kind: "tool_permission",
                      toolName: step.name,
                      input: step.input ?? {},
                      toolUseId,
                      ...(step.title ? { title: step.title } : {}),
                      ...(step.defaultToNo ? { defaultToNo: true } : {}),
                    });
                    if (outcome.resolution !== "answered") {
                      ctx.emit({
                        type: "tool_end",
                        toolUseId,
                        output: `not run: prompt ${outcome.resolution}`,
                        isError: true,
                      });
                      return { status: "interrupted" };
                    }
                    if (outcome.response.kind === "tool_permission" && !outcome.response.allow) {
                      const why = outcome.response.message ? `: ${outcome.response.message}` : "";
                      ctx.emit({ type: "tool_end", toolUseId, output: `denied by the user${why}`, isError: true });
                      break;
                    }
                  }
                  await sleep(step.durationMs ?? 0, signal);
                  ctx.emit({ type: "tool_end", toolUseId, output: step.output ?? "", isError: step.isError ?? false });
                  break;
                }
                case "question": {
                  const toolUseId = step.id ?? `ask_${randomUUID()}`;
                  ctx.emit({ type: "tool_start", toolUseId, toolName: "ask_user" });
                  ctx.emit({ type: "tool_input", toolUseId, input: { questions: step.questions } });
                  const outcome = await ctx.requestPrompt({
                    kind: "ask_user_question",
                    toolName: "ask_user",
                    input: { questions: step.questions },
                    toolUseId,
                    questions: step.questions,
                  });
                  if (outcome.resolution !== "answered" || outcome.response.kind !== "ask_user_question") {
                    ctx.emit({ type: "tool_end", toolUseId, output: "no answer", isError: true });
                    return { status: "interrupted" };
                  }
                  ctx.emit({ type: "tool_end", toolUseId, output: outcome.response.answers });
                  break;
                }
              }
            }
            return { status: signal.aborted ? "interrupted" : "completed" };
          } finally {
            if (current === abort) current = null;
          }
        },
        async interrupt() {
          current?.abort();
        },
        async close() {
          closed = true;
          current?.abort();
        },
      };
      return session;
    },
  };
}
