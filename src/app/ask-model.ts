/**
 * The model behind `cairn ask`, through pi's provider library (`@earendil-works/pi-ai`, an optional peer
 * dependency loaded only when a question is sent): a hosted provider by name with its key from the environment
 * (pi-ai's variable names, e.g. ANTHROPIC_API_KEY, OPENAI_API_KEY), or any OpenAI-compatible endpoint by base URL
 * (Ollama, LM Studio, vLLM), keyless or with CAIRN_ASK_API_KEY. Nothing is configured by default, so nothing
 * leaves the machine unless the user chose a model.
 */
import type { AnswerModel, AnswerOptions, AskPrompt } from "../ask/prompt.ts";
import { CairnError } from "../common/errors.ts";
import { readConfig, writeConfig } from "./config.ts";
import type { Env } from "./open.ts";

export interface ModelChoice {
  /** A pi-ai provider id (`anthropic`, `openai`, `openrouter`, …), or `openai-compatible` with a URL. */
  provider: string;
  model: string;
  /** Base URL of an OpenAI-compatible endpoint (`http://localhost:11434/v1`). */
  url: string | null;
}

export interface ModelFlags {
  provider?: string | undefined;
  model?: string | undefined;
  url?: string | undefined;
}

export const NO_MODEL_HINT =
  "pass --provider P --model M (key from the provider's variable, e.g. ANTHROPIC_API_KEY), or --url " +
  "http://localhost:11434/v1 --model M for an OpenAI-compatible server, or set CAIRN_ASK_PROVIDER, " +
  "CAIRN_ASK_MODEL, CAIRN_ASK_URL (add --save to remember a choice); --dry-run prints the evidence without a model (see docs/ask.md)";

const COMPATIBLE = "openai-compatible";

/**
 * The model the flags, else the environment, else the saved choice (`cairn ask --save`) choose; throws `no_model`
 * when there is none. A source is taken whole: flags or variables never mix with a saved choice.
 */
export function chooseModel(flags: ModelFlags, env: Env): ModelChoice {
  const set = (v: string | undefined | null) =>
    v === undefined || v === null || v.trim() === "" ? undefined : v.trim();
  const given = [
    flags.url,
    flags.provider,
    flags.model,
    env["CAIRN_ASK_URL"],
    env["CAIRN_ASK_PROVIDER"],
    env["CAIRN_ASK_MODEL"],
  ];
  const saved = given.some((v) => set(v) !== undefined) ? undefined : readConfig(env).model;
  const url = set(flags.url) ?? set(env["CAIRN_ASK_URL"]) ?? set(saved?.url) ?? null;
  const provider =
    set(flags.provider) ?? set(env["CAIRN_ASK_PROVIDER"]) ?? set(saved?.provider) ?? (url ? COMPATIBLE : undefined);
  const model = set(flags.model) ?? set(env["CAIRN_ASK_MODEL"]) ?? set(saved?.model);
  if (!provider && !model) throw new CairnError("no_model", "no model is configured to answer with", NO_MODEL_HINT);
  if (!provider) throw new CairnError("no_model", `--model ${model} needs --provider or --url`, NO_MODEL_HINT);
  if (!model) throw new CairnError("no_model", `--provider ${provider} needs --model`, NO_MODEL_HINT);
  if (provider === COMPATIBLE && !url)
    throw new CairnError("no_model", "an OpenAI-compatible provider needs --url", NO_MODEL_HINT);
  if (url && !/^https?:\/\//.test(url)) throw new CairnError("usage", `--url must be an http(s) URL, not '${url}'`);
  return { provider, model, url };
}

/** Saves the choice as the default for `ask` and `resume --ai`; returns the settings file's path. */
export function saveModel(choice: ModelChoice, env: Env): string {
  return writeConfig(env, { ...readConfig(env), model: choice });
}

type PiAi = typeof import("@earendil-works/pi-ai");

async function loadPiAi(): Promise<PiAi> {
  try {
    return await import("@earendil-works/pi-ai");
  } catch {
    throw new CairnError(
      "no_model",
      "cairn ask needs pi's provider library to reach a model",
      "npm install @earendil-works/pi-ai (or use --dry-run to print the evidence without a model)",
    );
  }
}

/** A pi-ai model for the choice, with keys read from `env` only. */
export async function createAnswerModel(choice: ModelChoice, env: Env): Promise<AnswerModel> {
  const ai = await loadPiAi();
  const authContext = { env: async (name: string) => env[name], fileExists: async () => false };
  let models: import("@earendil-works/pi-ai").MutableModels;
  if (choice.url) {
    const { openAICompletionsApi } = await import("@earendil-works/pi-ai/api/openai-completions.lazy");
    const id = choice.provider;
    const model = {
      id: choice.model,
      name: choice.model,
      api: "openai-completions" as const,
      provider: id,
      baseUrl: choice.url,
      reasoning: false,
      input: ["text" as const],
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      contextWindow: 128_000,
      maxTokens: 4096,
    };
    // the chat-completions client insists on a key; a keyless local server ignores the placeholder
    const key = env["CAIRN_ASK_API_KEY"] || "none";
    const provider = ai.createProvider({
      id,
      baseUrl: choice.url,
      auth: {
        apiKey: { name: "OpenAI-compatible endpoint", resolve: async () => ({ auth: { apiKey: key } }) },
      },
      models: [model],
      api: openAICompletionsApi(),
    });
    models = ai.createModels({ authContext });
    models.setProvider(provider);
  } else {
    const { builtinModels } = await import("@earendil-works/pi-ai/providers/all");
    models = builtinModels({ authContext });
  }
  const model = models.getModel(choice.provider, choice.model);
  if (model && (choice.url || (await models.checkAuth(choice.provider)))) return piAnswerModel(models, model);
  // pi's own providers and stored logins (auth.json, models.json) when pi is installed
  const pi = choice.url ? null : await piRuntime();
  const piModel = pi?.getModel(choice.provider, choice.model);
  if (pi && piModel && (await pi.checkAuth(choice.provider))) return piAnswerModel(pi, piModel);
  if (!model && !piModel) {
    const known =
      models.getProviders().some((p) => p.id === choice.provider) || pi?.getProvider(choice.provider) !== undefined;
    throw new CairnError(
      "no_model",
      known
        ? `provider '${choice.provider}' has no model '${choice.model}'`
        : `no provider '${choice.provider}' in pi-ai${pi ? " or pi's models.json" : ""}`,
      NO_MODEL_HINT,
    );
  }
  throw new CairnError(
    "no_model",
    `provider '${choice.provider}' has no key in the environment${pi ? " or in pi's stored logins" : ""}`,
    "set its API key variable (pi-ai's names: ANTHROPIC_API_KEY, OPENAI_API_KEY, OPENROUTER_API_KEY, …; see docs/ask.md), or log in with pi (/login)",
  );
}

/**
 * pi's model runtime, reading pi's stored credentials and custom models from its agent folder (PI_CODING_AGENT_DIR,
 * default ~/.pi/agent), without refreshing catalogs over the network; null when pi is not installed.
 */
async function piRuntime(): Promise<
  | (import("@earendil-works/pi-ai").Models & {
      getProvider(id: string): unknown;
    })
  | null
> {
  try {
    const { ModelRuntime } = await import("@earendil-works/pi-coding-agent");
    return await ModelRuntime.create({ allowModelNetwork: false, refreshOnCreate: false });
  } catch {
    return null;
  }
}

/** An `AnswerModel` over a pi-ai collection and one of its models (a faux provider's in tests). */
export function piAnswerModel(
  models: import("@earendil-works/pi-ai").Models,
  model: import("@earendil-works/pi-ai").Model<import("@earendil-works/pi-ai").Api>,
): AnswerModel {
  return {
    name: `${model.provider}/${model.id}`,
    async answer(prompt: AskPrompt, opts: AnswerOptions = {}): Promise<string> {
      const context = {
        systemPrompt: prompt.system,
        messages: [{ role: "user" as const, content: prompt.user, timestamp: Date.now() }],
      };
      const stream = models.stream(model, context, opts.signal ? { signal: opts.signal } : {});
      let text = "";
      for await (const event of stream) {
        if (event.type === "text_delta") {
          text += event.delta;
          opts.onText?.(event.delta);
        } else if (event.type === "error") {
          if (event.reason === "aborted") throw new CairnError("interrupted", "the answer was interrupted");
          throw new CairnError("failure", `the model failed: ${event.error.errorMessage ?? "no reason given"}`);
        }
      }
      return text;
    },
  };
}
