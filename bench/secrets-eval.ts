/**
 * `npm run eval:secrets`: detection recall on planted secrets of each common kind and false positives on
 * look-alikes (hashes, UUIDs, base64 images, integrity strings, placeholders), from bench/secrets-cases.ts, plus
 * the findings on the real transcripts in ../shared/fixtures/real (which hold no planted secret: each is a false
 * positive unless it is a real credential someone pasted). A case is found when one finding covers its value
 * whole and redaction leaves no copy of it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { findSecrets } from "../src/secrets/detect.ts";
import { redactText } from "../src/secrets/redact.ts";
import { lookAlikeCases, plantedCases } from "./secrets-cases.ts";

function covered(text: string, secret: string): boolean {
  const at = text.indexOf(secret);
  return findSecrets(text).some((f) => f.at <= at && f.at + f.length >= at + secret.length);
}

const planted = plantedCases();
let found = 0;
console.log("planted secrets:");
for (const c of planted) {
  const ok = covered(c.text, c.secret!) && !redactText(c.text).includes(c.secret!);
  if (ok) found++;
  const kinds = findSecrets(c.text)
    .map((f) => f.kind)
    .join(", ");
  console.log(`  ${ok ? "found " : "MISSED"}  ${c.label.padEnd(28)} ${kinds}`);
}
const looks = lookAlikeCases();
let falsePositives = 0;
console.log("look-alikes:");
for (const c of looks) {
  const f = findSecrets(c.text);
  if (f.length > 0) falsePositives++;
  console.log(`  ${f.length === 0 ? "clean " : "FLAGGED"} ${c.label.padEnd(28)} ${f.map((x) => x.kind).join(", ")}`);
}

// The real transcripts: every string value of every record, as cairn would scan its text.
const root =
  [
    process.env["CAIRN_REAL_FIXTURES"],
    join(import.meta.dirname, "../../shared/fixtures/real"),
    "/work/shared/fixtures/real",
  ].find((c) => c !== undefined && existsSync(c)) ?? "../shared/fixtures/real";
const files: string[] = [];
const walk = (d: string) => {
  for (const f of readdirSync(d)) {
    const p = join(d, f);
    if (statSync(p).isDirectory()) walk(p);
    else if (p.endsWith(".jsonl")) files.push(p);
  }
};
let realFindings: string[] = [];
let bytes = 0;
let ms = 0;
try {
  walk(root);
  const texts: string[] = [];
  const collect = (v: unknown) => {
    if (typeof v === "string") texts.push(v);
    else if (v && typeof v === "object") for (const x of Object.values(v)) collect(x);
  };
  for (const f of files)
    for (const line of readFileSync(f, "utf8").split("\n")) {
      try {
        collect(JSON.parse(line));
      } catch {
        // a torn last line
      }
    }
  for (const t of texts) bytes += t.length;
  const t0 = performance.now();
  realFindings = texts.flatMap((t) => findSecrets(t).map((f) => f.kind));
  ms = performance.now() - t0;
} catch {
  console.log(`(no real transcripts at ${root})`);
}

console.log(
  `\nrecall ${found}/${planted.length} (${((found / planted.length) * 100).toFixed(0)} %), false positives on look-alikes ${falsePositives}/${looks.length}`,
);
if (files.length > 0)
  console.log(
    `real transcripts: ${files.length} files, ${(bytes / 1e6).toFixed(1)} MB of text, ${realFindings.length} finding(s)${realFindings.length ? ` (${realFindings.join(", ")})` : ""}, scanned in ${ms.toFixed(0)} ms`,
  );
