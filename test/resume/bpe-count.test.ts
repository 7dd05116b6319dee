/**
 * The exact token counter (src/resume/bpe-count.ts over data/o200k-ranks.bin) counts what gpt-tokenizer's o200k
 * encoding counts, on every string of the real transcripts and on the texts byte-pair encoding finds hard, and
 * the shipped table is the one the script writes from gpt-tokenizer's ranks.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import ranks from "gpt-tokenizer/esm/bpeRanks/o200k_base";
import { describe, expect, it } from "vitest";
import { buildRankTable } from "../../src/resume/bpe-count.ts";
import { createTokenCounter } from "../../src/resume/tokens.ts";
import { realFixturesDir } from "../helpers/transcripts.ts";

const PLAIN = { disallowedSpecial: new Set<string>() };

function transcriptStrings(): string[] {
  const out = new Set<string>();
  const collect = (v: unknown): void => {
    if (typeof v === "string") out.add(v);
    else if (Array.isArray(v)) v.forEach(collect);
    else if (v && typeof v === "object") Object.values(v).forEach(collect);
  };
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".jsonl"))
        for (const line of readFileSync(path, "utf8").split("\n"))
          if (line.trim())
            try {
              collect(JSON.parse(line));
            } catch {
              out.add(line);
            }
    }
  };
  walk(realFixturesDir());
  return [...out];
}

describe("o200k counts from the rank table", () => {
  it("equal gpt-tokenizer's on every string of the real transcripts", () => {
    const counter = createTokenCounter();
    const texts = transcriptStrings();
    expect(texts.length).toBeGreaterThan(5_000);
    const differ = texts.filter((t) => counter.count(t) !== countTokens(t, PLAIN));
    expect(differ.map((t) => t.slice(0, 80))).toEqual([]);
  });

  it("equal them on special-token text, every script, lone surrogates and long runs", () => {
    const counter = createTokenCounter();
    const texts = [
      "<|endoftext|> and <|im_start|>system<|im_end|>",
      "naïve café, 中文分词, русский текст, עברית, 😀👍🏽 emoji, \u0301 combining",
      "don't WE'LL they've I'M",
      "  \n\n\t  indented\r\n/path/to//file;\n/next",
      "\ud800 lone \udfff surrogates",
      "x".repeat(4_000),
      " ".repeat(500),
      "12345678901234567890 3.14159 0xDEADBEEF",
      "",
    ];
    for (const t of texts) expect(counter.count(t), t.slice(0, 40)).toBe(countTokens(t, PLAIN));
  });

  it("come from the table the script writes from gpt-tokenizer's ranks", () => {
    const shipped = readFileSync(new URL("../../data/o200k-ranks.bin", import.meta.url));
    expect(Buffer.from(buildRankTable(ranks)).equals(shipped)).toBe(true);
  });
});
