/**
 * Generated transcript corpora for benchmarks: real transcripts (../shared/fixtures/real) cloned into many
 * sessions with fresh ids, so sizes and content are shaped like real use while every session is distinct.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

export function realFixturesDir(): string {
  const candidates = [
    process.env["CAIRN_REAL_FIXTURES"],
    resolve(here, "../../shared/fixtures/real"),
    "/work/shared/fixtures/real",
  ];
  for (const c of candidates) if (c && existsSync(join(c, "SOURCES.md"))) return c;
  throw new Error("real fixtures not found; set CAIRN_REAL_FIXTURES");
}

export function realFixtureFiles(): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (n.endsWith(".jsonl")) out.push(p);
    }
  };
  walk(realFixturesDir());
  return out.sort();
}

interface Template {
  provider: "claude" | "codex" | "pi";
  /** Lines written once at the top (pi header, Codex session_meta). */
  head: string[];
  /** Lines repeated (with fresh ids each time) until the file reaches its size. */
  body: string[];
  /** Ids that name the session itself: remapped once per file, not per repetition. */
  sessionIds: Set<string>;
}

function loadTemplates(): Template[] {
  const out: Template[] = [];
  for (const f of realFixtureFiles()) {
    const text = readFileSync(f, "utf8");
    const lines = text.split("\n").filter((l) => l.length > 0);
    if (lines.length < 20) continue;
    const sessionIds = new Set([...text.matchAll(/"sessionId":"([0-9a-f-]{36})"/g)].map((m) => m[1]!));
    if (f.includes("/pi/")) out.push({ provider: "pi", head: lines.slice(0, 1), body: lines.slice(1), sessionIds });
    else if (f.includes("/codex/"))
      out.push({ provider: "codex", head: lines.slice(0, 1), body: lines.slice(1), sessionIds });
    else out.push({ provider: "claude", head: [], body: lines, sessionIds });
  }
  return out;
}

/** A small, fast, deterministic hash (FNV-1a) for id remapping. */
function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function hex(seed: string, len: number): string {
  let out = "";
  let i = 0;
  while (out.length < len) out += fnv(`${seed}:${i++}`).toString(16).padStart(8, "0");
  return out.slice(0, len);
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const SHORT_ID = /"(id|parentId|targetId|fromId|firstKeptEntryId)":"([0-9a-f]{8})"/g;
const CALL_ID = /\b(call|toolu|msg|req)_([A-Za-z0-9]{8,40})/g;

/** Rewrites every id in a line with a salt, keeping lengths and shapes. */
function remap(line: string, salt: string, fileSalt: string, sessionIds: Set<string>): string {
  return line
    .replace(UUID, (u) => {
      const h = hex((sessionIds.has(u) ? fileSalt : salt) + u, 32);
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
    })
    .replace(SHORT_ID, (_m, k: string, v: string) => `"${k}":"${hex(salt + v, 8)}"`)
    .replace(CALL_ID, (_m, p: string, v: string) => `${p}_${hex(salt + v, v.length)}`);
}

export interface CorpusFile {
  path: string;
  bytes: number;
  provider: string;
}

/**
 * Writes one transcript of about `bytes` bytes: the template's head once, then its body repeated, every
 * repetition with fresh ids (so a long file is one long session, as in real use).
 */
function writeTranscript(path: string, t: Template, bytes: number, salt: string): number {
  const parts: string[] = [];
  let size = 0;
  for (const h of t.head) {
    const l = `${remap(h, salt, salt, t.sessionIds)}\n`;
    parts.push(l);
    size += Buffer.byteLength(l);
  }
  let rep = 0;
  while (size < bytes) {
    for (const b of t.body) {
      const l = `${remap(b, `${salt}/${rep}`, salt, t.sessionIds)}\n`;
      parts.push(l);
      size += Buffer.byteLength(l);
      if (size >= bytes) break;
    }
    rep++;
  }
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, parts.join(""));
  return size;
}

/** File sizes shaped like real use: p50 105 KB, p90 650 KB, p99 5 MB, max 90 MB (log-normal body, fixed tail). */
export function realisticSizes(count: number, seed = 1): number[] {
  let s = seed;
  const rand = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s + 0.5) / 4294967296;
  };
  const sizes: number[] = [];
  for (let i = 0; i < count; i++) {
    // Box-Muller normal; ln(105 KB) median, sigma so that p90 ≈ 650 KB (z=1.2816)
    const z = Math.sqrt(-2 * Math.log(rand())) * Math.cos(2 * Math.PI * rand());
    const mu = Math.log(105_000);
    const sigma = Math.log(650_000 / 105_000) / 1.2816;
    sizes.push(Math.min(Math.round(Math.exp(mu + sigma * z)), 20_000_000));
  }
  // The heavy tail: one file at the maximum and ~1% around 5 MB.
  sizes.sort((a, b) => a - b);
  const top = Math.max(1, Math.round(count * 0.01));
  for (let i = 0; i < top; i++) sizes[count - 1 - i] = 5_000_000 + i * 100_000;
  if (count >= 100) sizes[count - 1] = 90_000_000;
  return sizes;
}

/**
 * Generates (or reuses, when its manifest matches) a corpus under `dir`: files laid out in each agent's own
 * folder structure, providers in turn (or one agent's transcripts only).
 */
export function generateCorpus(dir: string, sizes: number[], name: string, only?: Template["provider"]): CorpusFile[] {
  const manifest = join(dir, `${name}.manifest.json`);
  if (existsSync(manifest)) {
    const files = JSON.parse(readFileSync(manifest, "utf8")) as CorpusFile[];
    if (files.length === sizes.length && files.every((f) => existsSync(f.path))) return files;
  }
  const templates = loadTemplates().filter((t) => only === undefined || t.provider === only);
  const files: CorpusFile[] = [];
  sizes.forEach((bytes, i) => {
    const t = templates[i % templates.length]!;
    const id = hex(`${name}/${i}`, 32);
    const uuid = `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20, 32)}`;
    const path =
      t.provider === "claude"
        ? join(dir, "claude/projects", `-work-p${i % 40}`, `${uuid}.jsonl`)
        : t.provider === "codex"
          ? join(
              dir,
              "codex/sessions/2026/01",
              String((i % 28) + 1).padStart(2, "0"),
              `rollout-2026-01-01T00-00-00-${uuid}.jsonl`,
            )
          : join(dir, "pi/sessions", `--work-p${i % 40}--`, `2026-01-01T00-00-00-000Z_${uuid}.jsonl`);
    const written = writeTranscript(path, t, bytes, `${name}/${i}`);
    files.push({ path, bytes: written, provider: t.provider });
  });
  writeFileSync(manifest, JSON.stringify(files));
  return files;
}
