import { readFileSync } from "node:fs";
import { isUtf8 } from "node:buffer";
const t0 = performance.now();
const { GptEncoding } = await import("gpt-tokenizer/GptEncoding");
const t1 = performance.now();
const text = readFileSync("node_modules/gpt-tokenizer/data/o200k_base.tiktoken", "latin1");
const ranks = [];
const dec = new TextDecoder();
let start = 0;
while (start < text.length) {
  let end = text.indexOf("\n", start); if (end < 0) end = text.length;
  const sp = text.indexOf(" ", start);
  const bytes = Buffer.from(text.slice(start, sp), "base64");
  const rank = +text.slice(sp + 1, end);
  ranks[rank] = isUtf8(bytes) ? dec.decode(bytes) : [...bytes];
  start = end + 1;
}
const t2 = performance.now();
const api = GptEncoding.getEncodingApi("o200k_base", () => ranks);
const t3 = performance.now();
const n = api.countTokens("hello world, this is a test of résumé 🚀 <|endoftext|>", { disallowedSpecial: new Set() });
const t4 = performance.now();
console.log(`import ${(t1-t0).toFixed(0)} parse ${(t2-t1).toFixed(0)} core ${(t3-t2).toFixed(0)} count ${(t4-t3).toFixed(0)} n=${n}`);
if (process.env.CHECK) {
  const { default: bpe } = await import("gpt-tokenizer/bpeRanks/o200k_base");
  let diff = 0; for (let i = 0; i < Math.max(bpe.length, ranks.length); i++) if (JSON.stringify(bpe[i]) !== JSON.stringify(ranks[i])) { if (diff++ < 5) console.log(i, JSON.stringify(bpe[i]), JSON.stringify(ranks[i])); }
  console.log("lengths", bpe.length, ranks.length, "diffs", diff);
  const m = await import("gpt-tokenizer/encoding/o200k_base"); console.log("ref n", m.countTokens("hello world, this is a test of résumé 🚀 <|endoftext|>", { disallowedSpecial: new Set() }));
}
