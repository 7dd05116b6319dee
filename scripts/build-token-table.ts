/**
 * Writes data/o200k-ranks.bin: OpenAI's o200k_base byte-pair ranks, as gpt-tokenizer ships them, in the form
 * src/resume/bpe-count.ts reads with one file read (layout there). gpt-tokenizer's own rank module is a 2.4 MB
 * JavaScript array whose compiling and Map building took most of a `cairn resume` (docs/performance.md).
 * test/resume/bpe-count.test.ts fails when the file differs from what this writes.
 *
 *   node scripts/build-token-table.ts
 */
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ranks from "gpt-tokenizer/esm/bpeRanks/o200k_base";
import { buildRankTable } from "../src/resume/bpe-count.ts";

const out = join(dirname(fileURLToPath(import.meta.url)), "../data/o200k-ranks.bin");
writeFileSync(out, buildRankTable(ranks));
console.log(`wrote ${out}`);
