/**
 * Installing a known model: its pinned files gathered into a staging folder (from the hub, or `--from` a folder or
 * archive), each checked against its sha256, the ONNX graph built from the weights, a manifest written, and only
 * then the folder moved into place in one rename. An interrupted pull leaves the staging folder (and a download's
 * `.part` file, which the next pull resumes); a refused file leaves nothing; an installed model is never half
 * replaced.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CairnError } from "../../common/errors.ts";
import { buildBertOnnx, type Precision, readBertConfig } from "../onnx/bert-graph.ts";
import { readSafetensors } from "../onnx/safetensors.ts";
import { type DownloadProgress, downloadPinned, hubEndpoint, type Moved } from "./hub.ts";
import { GRAPH_FILE, MANIFEST, type Manifest, modelsDir, sha256File, TOKENIZER_FILE } from "./installed.ts";
import { FILE_ROLES, KNOWN_MODELS, type KnownModel, knownModel } from "./known.ts";
import { takeFromLocal } from "./local.ts";

export const PRECISIONS: readonly Precision[] = ["int8", "float32"];
/** Chosen by measurement: int8 embeds ~2× faster at 0.99+ cosine to float32 (docs/search.md, "Models"). */
export const DEFAULT_PRECISION: Precision = "int8";

export interface PullRequest {
  id: string;
  env: Record<string, string | undefined>;
  /** A folder or archive holding the files; the hub when absent. */
  from?: string | undefined;
  precision?: Precision | undefined;
  signal?: AbortSignal | undefined;
  onProgress?: ((p: DownloadProgress) => void) | undefined;
  /** Told of each step (`building the ONNX graph`), for a person watching. */
  onStep?: ((step: string) => void) | undefined;
}

export interface PullResult {
  manifest: Manifest;
  dir: string;
  /** Files the hub had moved, fetched from their new path because their checksum is the pin. */
  moved: Moved[];
  replaced: boolean;
}

export function modelFor(id: string): KnownModel {
  const model = knownModel(id);
  if (!model)
    throw new CairnError(
      "usage",
      `no model named '${id}'`,
      `known models: ${KNOWN_MODELS.map((m) => m.id).join(", ")}`,
    );
  return model;
}

export async function pullModel(req: PullRequest): Promise<PullResult> {
  const model = modelFor(req.id);
  const precision = req.precision ?? DEFAULT_PRECISION;
  const root = modelsDir(req.env);
  const staging = join(root, ".staging", model.id);
  mkdirSync(staging, { recursive: true });
  const moved: Moved[] = [];
  if (req.from !== undefined) {
    req.onStep?.(`looking for ${model.id}'s files in ${req.from}`);
    try {
      await takeFromLocal(model, req.from, staging);
    } catch (error) {
      // files from a folder are found again in a moment: nothing to resume
      rmSync(staging, { recursive: true, force: true });
      throw error;
    }
  } else {
    const endpoint = hubEndpoint(req.env);
    for (const role of FILE_ROLES) {
      const dest = join(staging, role);
      if (existsSync(dest) && (await sha256File(dest)) === model.files[role].sha256) continue;
      const m = await downloadPinned(model, model.files[role], dest, {
        endpoint,
        token: req.env["HF_TOKEN"],
        signal: req.signal,
        onProgress: req.onProgress,
      });
      if (m) moved.push(m);
    }
  }
  req.signal?.throwIfAborted();
  req.onStep?.(`building ${model.id}'s ONNX graph (${precision})`);
  const ready = `${staging}.ready`;
  rmSync(ready, { recursive: true, force: true });
  mkdirSync(ready, { recursive: true });
  const config = readBertConfig(JSON.parse(readFileSync(join(staging, "config"), "utf8")));
  writeFileSync(
    join(ready, GRAPH_FILE),
    buildBertOnnx(readSafetensors(readFileSync(join(staging, "weights"))), config, precision),
  );
  writeFileSync(join(ready, TOKENIZER_FILE), readFileSync(join(staging, "tokenizer")));
  const manifest: Manifest = {
    id: model.id,
    repo: model.repo,
    revision: model.revision,
    precision,
    maxTokens: model.maxTokens,
    floor: model.floor,
    dimension: config.hidden_size,
    source: req.from ?? `${hubEndpoint(req.env)}/${model.repo}`,
    installed_at: new Date().toISOString(),
    files: {
      [GRAPH_FILE]: await sha256File(join(ready, GRAPH_FILE)),
      [TOKENIZER_FILE]: await sha256File(join(ready, TOKENIZER_FILE)),
    },
    ...(model.prefix ? { prefix: model.prefix } : {}),
  };
  writeFileSync(join(ready, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  const dir = join(root, model.id);
  const replaced = existsSync(dir);
  if (replaced) {
    const old = join(root, ".staging", `${model.id}.old`);
    rmSync(old, { recursive: true, force: true });
    renameSync(dir, old);
    renameSync(ready, dir);
    rmSync(old, { recursive: true, force: true });
  } else renameSync(ready, dir);
  rmSync(staging, { recursive: true, force: true });
  return { manifest, dir, moved, replaced };
}

export function isPrecision(x: string): x is Precision {
  return (PRECISIONS as readonly string[]).includes(x);
}
