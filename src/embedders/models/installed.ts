/**
 * Models installed on this machine, under `$XDG_CACHE_HOME/cairn/models/<id>/`: the ONNX graph cairn built from the
 * pinned weights, the tokenizer, and `manifest.json` saying what was installed from where, with each file's sha256.
 * A folder without a readable manifest is not an installed model (a pull that stopped half way leaves only its
 * staging folder, which the next pull resumes).
 */
import { createHash } from "node:crypto";
import { createReadStream, existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { Precision } from "../onnx/bert-graph.ts";
import { KNOWN_MODELS } from "./known.ts";

export const MANIFEST = "manifest.json";
export const GRAPH_FILE = "model.onnx";
export const TOKENIZER_FILE = "tokenizer.json";

export interface Manifest {
  id: string;
  repo: string;
  revision: string;
  precision: Precision;
  maxTokens: number;
  floor: number;
  dimension: number;
  /** Where the files came from: the hub's address, or the folder or archive given to `--from`. */
  source: string;
  installed_at: string;
  /** sha256 of each file in the model's folder, checked by `cairn models verify`. */
  files: Record<string, string>;
  prefix?: { query: string; document: string };
}

export interface InstalledModel {
  dir: string;
  manifest: Manifest;
}

export function modelsDir(env: Record<string, string | undefined>): string {
  if (env["CAIRN_MODELS_DIR"]) return env["CAIRN_MODELS_DIR"];
  const cache = env["XDG_CACHE_HOME"] || join(env["HOME"] || homedir(), ".cache");
  return join(cache, "cairn", "models");
}

export function readManifest(dir: string): Manifest | null {
  try {
    const m = JSON.parse(readFileSync(join(dir, MANIFEST), "utf8")) as Manifest;
    return typeof m.id === "string" && typeof m.files === "object" && m.files !== null ? m : null;
  } catch {
    return null;
  }
}

export function installedModel(env: Record<string, string | undefined>, id: string): InstalledModel | null {
  if (!/^[a-z0-9][a-z0-9._-]*$/.test(id)) return null;
  const dir = join(modelsDir(env), id);
  const manifest = readManifest(dir);
  return manifest && manifest.id === id ? { dir, manifest } : null;
}

export function installedModels(env: Record<string, string | undefined>): InstalledModel[] {
  const root = modelsDir(env);
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((name) => !name.startsWith("."))
    .flatMap((name) => {
      const m = installedModel(env, name);
      return m ? [m] : [];
    });
}

/** The model used when the index names none: the first installed in the order of the known list. */
export function preferredModel(env: Record<string, string | undefined>): InstalledModel | null {
  const installed = installedModels(env);
  for (const known of KNOWN_MODELS) {
    const m = installed.find((i) => i.manifest.id === known.id);
    if (m) return m;
  }
  return installed[0] ?? null;
}

export function sha256File(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash("sha256");
    createReadStream(path)
      .on("data", (chunk) => hash.update(chunk))
      .on("error", reject)
      .on("end", () => resolve(hash.digest("hex")));
  });
}

export interface Verification {
  id: string;
  ok: boolean;
  /** Files missing or changed since the install. */
  problems: string[];
}

export async function verifyModel(model: InstalledModel): Promise<Verification> {
  const problems: string[] = [];
  for (const [name, sha] of Object.entries(model.manifest.files)) {
    const path = join(model.dir, name);
    if (!existsSync(path)) problems.push(`${name} is missing`);
    else if ((await sha256File(path)) !== sha) problems.push(`${name} changed since it was installed`);
  }
  return { id: model.manifest.id, ok: problems.length === 0, problems };
}

export function removeModel(env: Record<string, string | undefined>, id: string): boolean {
  const model = installedModel(env, id);
  if (!model) return false;
  rmSync(model.dir, { recursive: true, force: true });
  return true;
}

/**
 * The id the vectors a model makes are stored under: another revision, precision or build of the graph makes other
 * vectors, so the graph's checksum is part of it (a re-pull by a newer cairn re-embeds).
 */
export function embedderId(model: InstalledModel): string {
  const m = model.manifest;
  return `model:${m.id}@${m.revision.slice(0, 12)}:${m.precision}:${(m.files[GRAPH_FILE] ?? "").slice(0, 8)}`;
}
