/**
 * Downloading a pinned file from the Hugging Face hub (or a mirror: `CAIRN_HF_ENDPOINT`, then `HF_ENDPOINT`).
 * Resumable: bytes land in `<dest>.part`, and a second run asks for the rest with a Range request. A file the hub
 * no longer has at its pinned path is looked for in the same revision's file list by its checksum, so a file moved
 * within the repository (as `model.onnx` moved to `onnx/` in 2024) is still found; a file whose bytes do not match
 * the pin is deleted, never installed.
 */
import { createWriteStream, existsSync, renameSync, rmSync, statSync } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { CairnError, errorMessage } from "../../common/errors.ts";
import { sha256File } from "./installed.ts";
import type { KnownModel, PinnedFile } from "./known.ts";

export const DEFAULT_HUB = "https://huggingface.co";

export function hubEndpoint(env: Record<string, string | undefined>): string {
  return (env["CAIRN_HF_ENDPOINT"] || env["HF_ENDPOINT"] || DEFAULT_HUB).replace(/\/+$/, "");
}

export interface DownloadProgress {
  file: string;
  done: number;
  total: number;
}

export interface HubOptions {
  endpoint: string;
  /** Sent as a bearer token, for gated repositories (`HF_TOKEN`). */
  token?: string | undefined;
  signal?: AbortSignal | undefined;
  onProgress?: ((p: DownloadProgress) => void) | undefined;
}

/** A file the hub had under another path than the pin's, fetched from there because its checksum is the pin. */
export interface Moved {
  from: string;
  to: string;
}

const fileUrl = (o: HubOptions, model: KnownModel, path: string) =>
  `${o.endpoint}/${model.repo}/resolve/${model.revision}/${path.split("/").map(encodeURIComponent).join("/")}`;

export async function downloadPinned(
  model: KnownModel,
  pin: PinnedFile,
  dest: string,
  o: HubOptions,
): Promise<Moved | null> {
  let path = pin.path;
  let res = await request(fileUrl(o, model, path), dest, o, model.id);
  let moved: Moved | null = null;
  if (res.status === 404) {
    const elsewhere = await findByChecksum(model, pin, o);
    if (!elsewhere)
      throw new CairnError(
        "failure",
        `the hub has no ${pin.path} at revision ${model.revision.slice(0, 12)} of ${model.repo} (404), and no file of that revision has its checksum: it was moved or removed`,
        `get the files another way (a mirror with CAIRN_HF_ENDPOINT, a copy someone has) and run 'cairn models pull ${model.id} --from DIR'`,
      );
    moved = { from: pin.path, to: elsewhere };
    path = elsewhere;
    res = await request(fileUrl(o, model, path), dest, o, model.id);
  }
  await receive(res, dest, pin, path, o);
  const sha = await sha256File(`${dest}.part`);
  if (sha !== pin.sha256) {
    rmSync(`${dest}.part`, { force: true });
    throw new CairnError(
      "failure",
      `the hub sent a ${path} whose sha256 is ${sha.slice(0, 16)}…, not the pinned ${pin.sha256.slice(0, 16)}…: refused, nothing installed`,
      "a proxy or mirror may have altered it; try again, or use --from with files you trust",
    );
  }
  renameSync(`${dest}.part`, dest);
  return moved;
}

async function request(url: string, dest: string, o: HubOptions, id: string): Promise<Response> {
  const have = existsSync(`${dest}.part`) ? statSync(`${dest}.part`).size : 0;
  const headers: Record<string, string> = { "user-agent": "cairn" };
  if (have > 0) headers["range"] = `bytes=${have}-`;
  if (o.token) headers["authorization"] = `Bearer ${o.token}`;
  try {
    return await fetch(url, { headers, redirect: "follow", ...(o.signal ? { signal: o.signal } : {}) });
  } catch (error) {
    if (o.signal?.aborted) throw error;
    throw new CairnError(
      "failure",
      `cannot reach the hub at ${new URL(url).origin}: ${errorMessage(error)}`,
      `on a machine without internet, copy the files over and use 'cairn models pull ${id} --from DIR'`,
    );
  }
}

async function receive(res: Response, dest: string, pin: PinnedFile, path: string, o: HubOptions): Promise<void> {
  if (res.status === 401 || res.status === 403)
    throw new CairnError(
      "failure",
      `the hub refused ${path} (${res.status})`,
      "a gated model needs HF_TOKEN set to a token that may read it",
    );
  if (res.status === 416) {
    // the part file is already whole (or longer than the file): start again
    rmSync(`${dest}.part`, { force: true });
    throw new CairnError(
      "failure",
      `the hub refused to resume ${path}`,
      "run the same command again to download it from the start",
    );
  }
  if (res.status !== 200 && res.status !== 206)
    throw new CairnError("failure", `the hub answered ${res.status} for ${path}`, "try again later, or use --from");
  if (!res.body) throw new CairnError("failure", `the hub sent no body for ${path}`);
  const resumed = res.status === 206;
  let done = resumed && existsSync(`${dest}.part`) ? statSync(`${dest}.part`).size : 0;
  if (done + Number(res.headers.get("content-length") ?? 0) > pin.bytes)
    throw new CairnError("failure", `the hub offers a ${path} larger than its pinned ${pin.bytes} bytes: refused`);
  const body = Readable.fromWeb(res.body as import("node:stream/web").ReadableStream<Uint8Array>);
  body.on("data", (chunk: Buffer) => {
    done += chunk.length;
    if (done > pin.bytes)
      body.destroy(
        new CairnError("failure", `the hub sent more of ${path} than its pinned ${pin.bytes} bytes: refused`),
      );
    o.onProgress?.({ file: path, done, total: pin.bytes });
  });
  const stopped = (why: string) => {
    const mb = (n: number) => (n / 1e6).toFixed(1);
    return new CairnError(
      "failure",
      `the download of ${path} stopped after ${mb(done)} of ${mb(pin.bytes)} MB (${why})`,
      "run the same command again: it resumes where this one stopped",
    );
  };
  try {
    await pipeline(
      body,
      createWriteStream(`${dest}.part`, { flags: resumed ? "a" : "w" }),
      ...(o.signal ? [{ signal: o.signal }] : []),
    );
  } catch (error) {
    if (o.signal?.aborted || error instanceof CairnError) throw error;
    throw stopped(errorMessage(error));
  }
  if (done < pin.bytes) throw stopped("the connection closed");
}

interface TreeEntry {
  type?: string;
  path?: string;
  size?: number;
  lfs?: { oid?: string; size?: number };
}

/** The path, in the pinned revision, of a file with the pin's checksum (or, for small files, its name and size). */
async function findByChecksum(model: KnownModel, pin: PinnedFile, o: HubOptions): Promise<string | null> {
  const url = `${o.endpoint}/api/models/${model.repo}/tree/${model.revision}?recursive=true`;
  let entries: TreeEntry[];
  try {
    const res = await fetch(url, {
      headers: o.token ? { authorization: `Bearer ${o.token}` } : {},
      ...(o.signal ? { signal: o.signal } : {}),
    });
    if (!res.ok) return null;
    entries = (await res.json()) as TreeEntry[];
  } catch {
    return null;
  }
  if (!Array.isArray(entries)) return null;
  const name = pin.path.split("/").pop();
  const found =
    entries.find((e) => e.lfs?.oid === pin.sha256) ??
    entries.find((e) => !e.lfs && e.type === "file" && e.path?.split("/").pop() === name && e.size === pin.bytes);
  return found?.path && found.path !== pin.path ? found.path : null;
}
