import { describeEmbedder } from "../../embedders/config.ts";
import { isFloor } from "../../embedders/setting.ts";
import { EMBEDDER_KINDS, type EmbedderConfig } from "../../embedders/types.ts";
import { readCairn, writeCairn } from "../app.ts";
import { parseFlags } from "../args.ts";
import { plural } from "../format.ts";
import { INTERRUPTED } from "../index-run.ts";
import { type Command, UsageError, writeJson } from "../io.ts";
import { createVectorProgress } from "../vectors.ts";

const USAGE = `Usage: cairn embed [--embedder model|static|openai|transformers|none] [--url URL] [--model NAME] [--floor SIMILARITY] [--status] [--json] [--db PATH]

Semantic search embeds evidence bundles (errors with their call, checks, decisions, tool calls with a result
summary, resume summaries), never every message. 'cairn index' keeps them embedded; this command chooses the
embedder and catches up now. Changing the embedder re-embeds everything; search keeps working meanwhile.

  --embedder model         a sentence model installed with 'cairn models pull': --model minilm-l6 (the default
                           when one is installed: an index that chose nothing uses the best one)
  --embedder static        built in, offline: word vectors plus code-identifier features (the default
                           when no model is installed)
  --embedder openai        an OpenAI-compatible /v1/embeddings endpoint: --url http://localhost:11434/v1
                           --model nomic-embed-text (Ollama, LM Studio, vLLM, OpenAI; key from
                           CAIRN_EMBED_API_KEY or OPENAI_API_KEY, never stored)
  --embedder transformers  a transformers.js model: --model ./folder-with-onnx-export (or a hub id where the
                           machine has internet); needs 'npm install @huggingface/transformers'
  --embedder none          words only; drops the stored vectors
  --floor SIMILARITY       hits by meaning below this cosine similarity are dropped (static: 0.35, measured;
                           openai and transformers: 0.25 unless given; see docs/search.md)
A new embedder is saved only once it has answered; one that cannot be reached leaves the setting as it was.
  --status                 show the embedder and how much is embedded, change nothing`;

export const embedCommand: Command = {
  name: "embed",
  summary: "choose the embedder and embed the index's evidence bundles for semantic search",
  usage: USAGE,
  async run(argv, io) {
    const { values } = parseFlags(argv, {
      embedder: { type: "string" },
      url: { type: "string" },
      model: { type: "string" },
      floor: { type: "string" },
      status: { type: "boolean" },
      json: { type: "boolean" },
      db: { type: "string" },
    });
    const chosen = values.embedder === undefined ? null : configFrom(values);
    if (chosen === null && (values.url !== undefined || values.model !== undefined || values.floor !== undefined))
      throw new UsageError("--url, --model and --floor go with --embedder");
    if (values.status) {
      if (chosen) throw new UsageError("--status changes nothing; give it without --embedder");
      const app = readCairn(io, values.db);
      try {
        const status = app.embedStatus();
        if (values.json) writeJson(io, status);
        else
          io.stdout.write(
            `embedder: ${describeEmbedder(status.config)}\nbundles: ${status.bundles} (${plural(status.queued, "event")} queued)\nembedded: ${status.current ? status.embedded : 0}${status.embedder && !status.current ? ` (stored vectors are from ${status.embedder}; 'cairn embed' re-embeds)` : ""}\n`,
          );
        return 0;
      } finally {
        app.close();
      }
    }
    const app = writeCairn(io, values.db);
    try {
      const progress = createVectorProgress(io, values.json === true);
      const result = await app.embed({
        ...(chosen ? { config: chosen } : {}),
        onProgress: progress.update,
        ...(io.signal ? { signal: io.signal } : {}),
        onWait: (pid) => {
          if (!values.json) io.stderr.write(`cairn embed: waiting for pid ${pid}, which is indexing ${app.dbPath}…\n`);
        },
      });
      progress.done();
      if (values.json) writeJson(io, result);
      if (result.interrupted) {
        io.stderr.write(
          `cairn embed: interrupted; ${plural(result.embedded, "bundle")} embedded, ${result.pending} left for the next run\n`,
        );
        return INTERRUPTED;
      }
      if (values.json) return 0;
      else
        io.stdout.write(
          `${describeEmbedder(result.config)}: ${plural(result.bundled, "bundle")} built, ${result.embedded} embedded${result.reset ? " (re-embedding from scratch)" : ""}, ${result.pending} pending\n`,
        );
      return 0;
    } finally {
      app.close();
    }
  },
};

function configFrom(values: { embedder?: string; url?: string; model?: string; floor?: string }): EmbedderConfig {
  const kind = values.embedder as (typeof EMBEDDER_KINDS)[number];
  if (!EMBEDDER_KINDS.includes(kind))
    throw new UsageError(`--embedder must be one of ${EMBEDDER_KINDS.join(", ")}, not '${values.embedder}'`);
  const floor = floorFrom(values.floor);
  switch (kind) {
    case "none":
      if (values.url || values.model || values.floor)
        throw new UsageError("--embedder none takes no --url, --model or --floor");
      return { kind };
    case "model":
      if (values.url) throw new UsageError("--embedder model takes no --url");
      if (!values.model) throw new UsageError("--embedder model needs --model (one 'cairn models list' shows)");
      return { kind, model: values.model, ...floor };
    case "static":
      if (values.url || values.model) throw new UsageError("--embedder static takes no --url or --model");
      return { kind, ...floor };
    case "openai":
      if (!values.url || !values.model) throw new UsageError("--embedder openai needs --url and --model");
      return { kind, url: values.url, model: values.model, ...floor };
    case "transformers":
      if (!values.model) throw new UsageError("--embedder transformers needs --model (a folder or a hub id)");
      return { kind, model: values.model, ...floor };
  }
}

function floorFrom(value: string | undefined): { floor?: number } {
  if (value === undefined) return {};
  const floor = Number(value);
  if (value.trim() === "" || !isFloor(floor))
    throw new UsageError(`--floor is a cosine similarity from -1 to 1 (e.g. 0.4), not '${value}'`);
  return { floor };
}
