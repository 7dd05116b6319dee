/**
 * Sentence models on this machine, for `cairn models`: what cairn knows, what is installed, pulling one (from the
 * hub, or from files a user has), checking and removing. A model is machine-wide (`$XDG_CACHE_HOME/cairn/models`),
 * not part of an index: every index that has not chosen another embedder uses the best one installed.
 */
import { existsSync } from "node:fs";
import { CairnError } from "../common/errors.ts";
import type { DownloadProgress } from "../embedders/models/hub.ts";
import { isPrecision, PRECISIONS, type PullResult, pullModel } from "../embedders/models/install.ts";
import {
  installedModel,
  installedModels,
  modelsDir,
  preferredModel,
  removeModel,
  type Verification,
  verifyModel,
} from "../embedders/models/installed.ts";
import { KNOWN_MODELS, type PinnedFile } from "../embedders/models/known.ts";
import type { Precision } from "../embedders/onnx/bert-graph.ts";
import { commandDbPath } from "../indexer/db-path.ts";
import { isPgUrl } from "../store/pg/url.ts";

export type { DownloadProgress, Precision, PullResult, Verification };
export { PRECISIONS };

export interface ModelRow {
  id: string;
  summary: string;
  repo: string;
  revision: string;
  files: PinnedFile[];
  installed: boolean;
  /** Used by every index that has chosen no other embedder. */
  preferred: boolean;
  precision: Precision | null;
  floor: number;
  dir: string | null;
  source: string | null;
}

type Env = Record<string, string | undefined>;

export function listModels(env: Env): { dir: string; models: ModelRow[] } {
  const preferred = preferredModel(env)?.manifest.id ?? null;
  const models = KNOWN_MODELS.map((k): ModelRow => {
    const m = installedModel(env, k.id);
    return {
      id: k.id,
      summary: k.summary,
      repo: k.repo,
      revision: k.revision,
      files: Object.values(k.files),
      installed: m !== null,
      preferred: preferred === k.id,
      precision: m?.manifest.precision ?? null,
      floor: m?.manifest.floor ?? k.floor,
      dir: m?.dir ?? null,
      source: m?.manifest.source ?? null,
    };
  });
  return { dir: modelsDir(env), models };
}

export interface PullModelRequest {
  id: string;
  env: Env;
  from?: string | undefined;
  precision?: string | undefined;
  signal?: AbortSignal | undefined;
  onProgress?: ((p: DownloadProgress) => void) | undefined;
  onStep?: ((step: string) => void) | undefined;
}

export function pull(req: PullModelRequest): Promise<PullResult> {
  if (req.precision !== undefined && !isPrecision(req.precision))
    throw new CairnError("usage", `--precision is one of ${PRECISIONS.join(", ")}, not '${req.precision}'`);
  return pullModel({ ...req, precision: req.precision as Precision | undefined });
}

export async function verify(env: Env, id?: string): Promise<Verification[]> {
  const models = id === undefined ? installedModels(env) : [installedModel(env, id)];
  if (models[0] === null)
    throw new CairnError("not_found", `the model ${id} is not installed`, "'cairn models list' shows what is");
  return Promise.all(models.filter((m) => m !== null).map(verifyModel));
}

export function remove(env: Env, id: string): void {
  if (!removeModel(env, id))
    throw new CairnError("not_found", `the model ${id} is not installed`, "'cairn models list' shows what is");
}

/** Whether the index a command would open exists yet (a team index on PostgreSQL is taken to). */
export function indexExists(db: string | undefined, cwd: string, env: Env): boolean {
  const path = commandDbPath(db, cwd, env);
  return path === ":memory:" || isPgUrl(path) || existsSync(path);
}
