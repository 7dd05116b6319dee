import { parseArgs } from "node:util";
import { configuredEmbedder, describeEmbedder, EMBEDDER_SETTING } from "../../embedders/config.ts";
import { EMBEDDER_KINDS, type EmbedderConfig, EmbedderError } from "../../embedders/types.ts";
import { acquireLock } from "../../indexer/lock.ts";
import { refreshVectors } from "../../search/vectors.ts";
import { openStore } from "../../store/sqlite-store.ts";
import { dbPathOf } from "../db.ts";
import { INTERRUPTED } from "../index-run.ts";
import { type Command, UsageError, writeJson } from "../io.ts";
import { createVectorProgress } from "../vectors.ts";

const USAGE = `Usage: cairn embed [--embedder static|openai|transformers|none] [--url URL] [--model NAME] [--status] [--json] [--db PATH]

Semantic search embeds evidence bundles (errors with their call, checks, decisions, tool calls with a result
summary, resume summaries), never every message. 'cairn index' keeps them embedded; this command chooses the
embedder and catches up now. Changing the embedder re-embeds everything; search keeps working meanwhile.

  --embedder static        built in, offline: word vectors plus code-identifier features (the default)
  --embedder openai        an OpenAI-compatible /v1/embeddings endpoint: --url http://localhost:11434/v1
                           --model nomic-embed-text (Ollama, LM Studio, vLLM, OpenAI; key from
                           CAIRN_EMBED_API_KEY or OPENAI_API_KEY, never stored)
  --embedder transformers  a transformers.js model: --model ./folder-with-onnx-export (or a hub id where the
                           machine has internet); needs 'npm install @huggingface/transformers'
  --embedder none          words only; drops the stored vectors
  --status                 show the embedder and how much is embedded, change nothing`;

export const embedCommand: Command = {
  name: "embed",
  summary: "choose the embedder and embed the index's evidence bundles for semantic search",
  usage: USAGE,
  async run(argv, io) {
    const { values } = parse(argv);
    const chosen = values.embedder === undefined ? null : configFrom(values);
    if (chosen === null && (values.url !== undefined || values.model !== undefined))
      throw new UsageError("--url and --model go with --embedder");
    const dbPath = dbPathOf(values.db, io);
    const lock = values.status
      ? null
      : await acquireLock(dbPath, 60_000, (e) => {
          if (!values.json) io.stderr.write(`cairn embed: waiting for pid ${e.pid}, which is indexing ${dbPath}…\n`);
        });
    const store = openStore(dbPath);
    try {
      if (chosen && !values.status) store.putSetting(EMBEDDER_SETTING, JSON.stringify(chosen));
      const { config, embedder } = configuredEmbedder(store, io.env, io.cwd);
      if (values.status) {
        const state = store.vectorState();
        const current = embedder !== null && state.embedder === embedder.id;
        if (values.json) writeJson(io, { config, ...state, current });
        else
          io.stdout.write(
            `embedder: ${describeEmbedder(config)}\nbundles: ${state.bundles} (${state.queued} events queued)\nembedded: ${current ? state.embedded : 0}${state.embedder && !current ? ` (stored vectors are from ${state.embedder}; 'cairn embed' re-embeds)` : ""}\n`,
          );
        return 0;
      }
      const progress = createVectorProgress(io, values.json === true);
      const result = await refreshVectors(store, embedder, { signal: io.signal, onProgress: progress.update });
      progress.done();
      if (result.interrupted) {
        if (values.json) writeJson(io, { config, ...result });
        io.stderr.write(
          `cairn embed: interrupted; ${result.embedded} bundles embedded, ${result.pending} left for the next run\n`,
        );
        return INTERRUPTED;
      }
      if (values.json) writeJson(io, { config, ...result });
      else
        io.stdout.write(
          `${describeEmbedder(config)}: ${result.bundled} bundles built, ${result.embedded} embedded${result.reset ? " (re-embedding from scratch)" : ""}, ${result.pending} pending\n`,
        );
      return 0;
    } catch (error) {
      if (error instanceof EmbedderError) throw new Error(`embedding failed: ${error.message}`);
      throw error;
    } finally {
      store.close();
      lock?.release();
    }
  },
};

function configFrom(values: { embedder?: string; url?: string; model?: string }): EmbedderConfig {
  const kind = values.embedder as (typeof EMBEDDER_KINDS)[number];
  if (!EMBEDDER_KINDS.includes(kind))
    throw new UsageError(`--embedder must be one of ${EMBEDDER_KINDS.join(", ")}, not '${values.embedder}'`);
  switch (kind) {
    case "static":
    case "none":
      if (values.url || values.model) throw new UsageError(`--embedder ${kind} takes no --url or --model`);
      return { kind };
    case "openai":
      if (!values.url || !values.model) throw new UsageError("--embedder openai needs --url and --model");
      return { kind, url: values.url, model: values.model };
    case "transformers":
      if (!values.model) throw new UsageError("--embedder transformers needs --model (a folder or a hub id)");
      return { kind, model: values.model };
  }
}

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: {
        embedder: { type: "string" },
        url: { type: "string" },
        model: { type: "string" },
        status: { type: "boolean" },
        json: { type: "boolean" },
        db: { type: "string" },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}
