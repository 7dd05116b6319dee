/**
 * The pi driver (the default): one pi `AgentSessionRuntime` in the served directory. pi has no permission
 * prompt of its own, so an inline extension gates every tool call on a `tool_call` handler that awaits the
 * viewports' answer, and registers an `ask_user` tool for questions. Sessions are ordinary pi session files
 * under the pi agent dir, so `cairn index` (and `pi --resume`) see them like any other.
 */
import { randomUUID } from "node:crypto";
import { join, resolve } from "node:path";
import type { AssistantMessage, Model } from "@earendil-works/pi-ai";
import {
  type AgentSession,
  type AgentSessionEvent,
  type CreateAgentSessionRuntimeFactory,
  type CreateAgentSessionServicesOptions,
  createAgentSessionFromServices,
  createAgentSessionRuntime,
  createAgentSessionServices,
  type ExtensionFactory,
  getAgentDir,
  type ModelRuntime,
  SessionManager,
  type SettingsManager,
} from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";
import type { Question, TurnStatus, Usage } from "../protocol.ts";
import { DriverError, type DriverSession, type LiveDriver, type TurnContext, type TurnResult } from "./types.ts";

export interface PiDriverOptions {
  cwd: string;
  /** pi's agent dir (sessions, auth, settings). Defaults to `$PI_CODING_AGENT_DIR` or `~/.pi/agent`. */
  agentDir?: string;
  /** pi's provider and model id (`cairn serve --provider P --model M`); pi's settings choose when omitted. */
  provider?: string;
  modelId?: string;
  /** Tools that run without a prompt. Everything else asks. */
  autoAllowTools?: readonly string[];
  /** Restricts the active tools (pi's own default set when omitted); `ask_user` is added. */
  tools?: string[];
  /** Test seams: a model runtime and model (pi's faux provider), settings, resource loading. */
  modelRuntime?: ModelRuntime;
  model?: Model<string>;
  settingsManager?: SettingsManager;
  resourceLoaderOptions?: CreateAgentSessionServicesOptions["resourceLoaderOptions"];
}

/** pi's read-only tools, which cannot change anything and so never ask. */
export const DEFAULT_AUTO_ALLOW_TOOLS = ["read", "grep", "find", "ls", "ask_user"] as const;

const questionSchema = Type.Object({
  question: Type.String({ description: "The full question" }),
  header: Type.Optional(Type.String({ description: "A short label for the question" })),
  options: Type.Array(Type.Object({ label: Type.String(), description: Type.Optional(Type.String()) }), {
    minItems: 1,
    description: "The choices offered; the user may also type another answer",
  }),
  multiSelect: Type.Optional(Type.Boolean()),
});

/** pi's session folder for a working directory (`--<path with separators as dashes>--`). */
export function piSessionDir(agentDir: string, cwd: string): string {
  return join(
    resolve(agentDir),
    "sessions",
    `--${resolve(cwd)
      .replace(/^[/\\]/, "")
      .replace(/[/\\:]/g, "-")}--`,
  );
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((b): b is { type: "text"; text: string } => typeof b === "object" && b !== null && b.type === "text")
    .map((b) => b.text)
    .join("");
}

function toUsage(u: AssistantMessage["usage"] | undefined): Usage | undefined {
  if (!u) return undefined;
  return { inputTokens: u.input, outputTokens: u.output, totalTokens: u.totalTokens, costUsd: u.cost?.total ?? 0 };
}

function statusOf(message: AssistantMessage): TurnStatus {
  if (message.stopReason === "aborted") return "interrupted";
  if (message.stopReason === "error") return "failed";
  return "completed";
}

/** Advice for a page whose server has no model: what to do in the terminal that runs `cairn serve`. */
export const NO_MODEL_HINT =
  "Stop cairn serve and start it again with a model, e.g. `ANTHROPIC_API_KEY=… cairn serve --provider anthropic " +
  "--model claude-sonnet-4-5` (any provider pi supports works, with its API key in the environment), or set " +
  "defaultProvider and defaultModel in pi's settings.json. Logging in once with the pi command line works too.";

/** The model named by `--provider/--model`, or undefined to let pi's settings choose. Unknown names throw. */
function chooseModel(runtime: ModelRuntime, provider?: string, modelId?: string): Model<string> | undefined {
  if (!provider && !modelId) return undefined;
  if (!provider || !modelId) {
    throw new DriverError("--provider and --model go together", {
      hint: "Restart cairn serve with both --provider and --model, or with neither to use pi's settings.",
    });
  }
  const model = runtime.getModel(provider, modelId);
  if (!model) {
    const known = runtime
      .getModels(provider)
      .slice(0, 8)
      .map((m) => m.id);
    throw new DriverError(`pi knows no model '${modelId}' for provider '${provider}'`, {
      hint: known.length
        ? `Restart cairn serve with one of ${provider}'s models: ${known.join(", ")}${known.length === 8 ? ", …" : ""}.`
        : `pi knows no provider '${provider}'. Restart cairn serve with a provider pi supports (e.g. anthropic, openai, google).`,
    });
  }
  if (!runtime.hasConfiguredAuth(provider)) {
    throw new DriverError(`pi has no API key or login for '${provider}'`, {
      hint: `Set ${provider}'s API key in the environment of cairn serve (e.g. ${provider.toUpperCase().replace(/-/g, "_")}_API_KEY) and restart it.`,
    });
  }
  return model as Model<string>;
}

export function createPiDriver(options: PiDriverOptions): LiveDriver {
  const cwd = resolve(options.cwd);
  const agentDir = options.agentDir ?? getAgentDir();
  const autoAllow = new Set(options.autoAllowTools ?? DEFAULT_AUTO_ALLOW_TOOLS);

  return {
    name: "pi",
    cwd,
    async open(o = {}) {
      const sessionDir = piSessionDir(agentDir, cwd);
      let sessionManager: SessionManager;
      if (o.resumeSessionId) {
        const wanted = o.resumeSessionId;
        const saved = await SessionManager.list(cwd, sessionDir);
        const matches = saved.filter((s) => s.id === wanted);
        if (matches.length === 0) matches.push(...saved.filter((s) => s.id.startsWith(wanted)));
        if (matches.length > 1) {
          throw new DriverError(`${matches.length} pi sessions start with ${wanted}`, {
            hint: "Give more characters of the session id.",
          });
        }
        const found = matches[0];
        if (!found) {
          throw new DriverError(`no pi session ${o.resumeSessionId} was saved for ${cwd}`, {
            hint: "pi keeps sessions per working directory: start cairn serve with --cwd set to the session's project to continue it.",
          });
        }
        sessionManager = SessionManager.open(found.path, sessionDir);
      } else {
        sessionManager = SessionManager.create(cwd, sessionDir);
      }

      // The extension is rebuilt by pi on every session replacement; it reaches the running turn through this.
      let current: TurnContext | null = null;
      const gate: ExtensionFactory = (pi) => {
        pi.on("tool_call", async (event) => {
          if (autoAllow.has(event.toolName)) return undefined;
          const turn = current;
          if (!turn) return { block: true, reason: "no viewport turn is running to approve this call" };
          const outcome = await turn.requestPrompt({
            kind: "tool_permission",
            toolName: event.toolName,
            input: event.input,
            toolUseId: event.toolCallId,
          });
          if (outcome.resolution !== "answered")
            return { block: true, reason: `the permission prompt was ${outcome.resolution}` };
          if (outcome.response.kind === "tool_permission" && outcome.response.allow) return undefined;
          const why =
            outcome.response.kind === "tool_permission" && outcome.response.message
              ? `: ${outcome.response.message}`
              : "";
          return { block: true, reason: `denied by the user${why}` };
        });
        pi.registerTool({
          name: "ask_user",
          label: "Ask the user",
          description:
            "Ask the user one or more multiple-choice questions and wait for the answers. Use it when a decision " +
            "is theirs to make. Returns a JSON object mapping each question to the chosen answer.",
          parameters: Type.Object({ questions: Type.Array(questionSchema, { minItems: 1 }) }),
          async execute(toolCallId, params, signal) {
            const turn = current;
            if (!turn) throw new Error("no viewport is attached to answer");
            const questions = params.questions as Question[];
            const outcome = await turn.requestPrompt(
              { kind: "ask_user_question", toolName: "ask_user", input: params, toolUseId: toolCallId, questions },
              signal ? { signal } : undefined,
            );
            if (outcome.resolution !== "answered" || outcome.response.kind !== "ask_user_question") {
              throw new Error(`the question was ${outcome.resolution}; no answer`);
            }
            return {
              content: [{ type: "text", text: JSON.stringify(outcome.response.answers) }],
              details: outcome.response.answers,
            };
          },
        });
      };

      const createRuntime: CreateAgentSessionRuntimeFactory = async (r) => {
        const services = await createAgentSessionServices({
          cwd: r.cwd,
          agentDir: r.agentDir,
          ...(options.modelRuntime ? { modelRuntime: options.modelRuntime } : {}),
          ...(options.settingsManager ? { settingsManager: options.settingsManager } : {}),
          resourceLoaderOptions: {
            ...options.resourceLoaderOptions,
            extensionFactories: [
              ...(options.resourceLoaderOptions?.extensionFactories ?? []),
              { name: "cairn-live", factory: gate },
            ],
          },
        });
        const model = options.model ?? chooseModel(services.modelRuntime, options.provider, options.modelId);
        const created = await createAgentSessionFromServices({
          services,
          sessionManager: r.sessionManager,
          ...(r.sessionStartEvent ? { sessionStartEvent: r.sessionStartEvent } : {}),
          ...(model ? { model } : {}),
          ...(options.tools ? { tools: [...new Set([...options.tools, "ask_user"])] } : {}),
        });
        return { ...created, services, diagnostics: services.diagnostics };
      };
      const runtime = await createAgentSessionRuntime(createRuntime, { cwd, agentDir, sessionManager });

      let messageId: string | null = null;
      let usage: Usage = {};
      let lastAssistant: AssistantMessage | null = null;
      const onEvent = (event: AgentSessionEvent): void => {
        const turn = current;
        if (!turn) return;
        switch (event.type) {
          case "message_start":
            if (event.message.role === "assistant") {
              messageId = randomUUID();
              turn.emit({ type: "response_start", messageId });
            }
            return;
          case "message_update":
            if (messageId && event.assistantMessageEvent.type === "text_delta") {
              turn.emit({ type: "response_chunk", messageId, delta: event.assistantMessageEvent.delta });
            }
            return;
          case "message_end": {
            if (event.message.role !== "assistant" || !messageId) return;
            const message = event.message as AssistantMessage;
            lastAssistant = message;
            const u = toUsage(message.usage);
            for (const key of ["inputTokens", "outputTokens", "totalTokens", "costUsd"] as const) {
              if (u?.[key] !== undefined) usage[key] = (usage[key] ?? 0) + u[key];
            }
            turn.emit({ type: "response_end", messageId, status: statusOf(message), ...(u ? { usage: u } : {}) });
            if (message.stopReason === "error" && message.errorMessage) {
              turn.emit({ type: "error", code: "model_error", message: message.errorMessage });
            }
            messageId = null;
            return;
          }
          case "tool_execution_start":
            turn.emit({ type: "tool_start", toolUseId: event.toolCallId, toolName: event.toolName });
            turn.emit({ type: "tool_input", toolUseId: event.toolCallId, input: event.args ?? {} });
            return;
          case "tool_execution_end":
            turn.emit({
              type: "tool_end",
              toolUseId: event.toolCallId,
              output: textOf((event.result as { content?: unknown } | undefined)?.content),
              isError: event.isError,
            });
            return;
          default:
            return;
        }
      };

      let unsubscribe: (() => void) | null = null;
      const bind = async (session: AgentSession): Promise<void> => {
        await session.bindExtensions({
          commandContextActions: {
            waitForIdle: () => session.waitForIdle(),
            newSession: (opts) => runtime.newSession(opts),
            fork: async (id, opts) => ({ cancelled: (await runtime.fork(id, opts)).cancelled }),
            navigateTree: async (id, opts) => ({ cancelled: (await session.navigateTree(id, opts)).cancelled }),
            switchSession: (path, opts) => runtime.switchSession(path, opts),
            reload: () => session.reload(),
          },
        });
        unsubscribe?.();
        unsubscribe = session.subscribe(onEvent);
      };
      runtime.setRebindSession(bind);
      await bind(runtime.session);

      const model = runtime.session.model;
      if (!model || model.provider === "unknown") {
        await runtime.dispose();
        throw new DriverError("pi has no model it can use (no provider is logged in or has an API key)", {
          hint: NO_MODEL_HINT,
        });
      }

      let closed = false;
      const session: DriverSession = {
        sessionId: runtime.session.sessionId,
        model: `${model.provider}/${model.id}`,
        async runTurn(text: string, context: TurnContext): Promise<TurnResult> {
          if (closed) throw new Error("the pi session is closed");
          current = context;
          usage = {};
          lastAssistant = null;
          try {
            await runtime.session.prompt(text);
            const status: TurnStatus = context.signal.aborted
              ? "interrupted"
              : lastAssistant
                ? statusOf(lastAssistant)
                : "completed";
            return Object.keys(usage).length > 0 ? { status, usage } : { status };
          } finally {
            current = null;
            messageId = null;
          }
        },
        async interrupt() {
          await runtime.session.abort();
        },
        async close() {
          if (closed) return;
          closed = true;
          unsubscribe?.();
          await runtime.dispose();
        },
      };
      return session;
    },
  };
}
