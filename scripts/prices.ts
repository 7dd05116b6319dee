/**
 * Makes `data/prices.json`, the price table cairn ships, from LiteLLM's `model_prices_and_context_window.json` (MIT;
 * the PyPI wheel of `litellm` carries it as `litellm/model_prices_and_context_window_backup.json`):
 *
 *   node scripts/prices.ts <litellm.json> <where it came from>
 *
 * It keeps the chat models of the families coding agents use, each under its bare name (a provider's prefix
 * dropped when the bare name is not listed), with the token prices the usage report reads.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { PRICE_FIELDS, type PriceTable } from "../src/usage/prices.ts";

const FAMILIES =
  /^(claude-|gpt-|o[134](-|$)|codex|gemini-|qwen|deepseek|grok|kimi|moonshot|glm|mistral|devstral|codestral|magistral|minimax)/i;

/**
 * Anthropic's published prices for models LiteLLM dropped or lists without their long-context rates: input, output,
 * cache write, cache read, then the same above 200k tokens (dollars per million tokens).
 */
const ANTHROPIC: Record<string, Array<number | null>> = {
  "claude-opus-4-5": [5, 25, 6.25, 0.5, null, null, null, null],
  "claude-opus-4-6": [5, 25, 6.25, 0.5, null, null, null, null],
  "claude-opus-4-7": [5, 25, 6.25, 0.5, null, null, null, null],
  "claude-opus-4-8": [5, 25, 6.25, 0.5, null, null, null, null],
  "claude-haiku-4-5": [1, 5, 1.25, 0.1, null, null, null, null],
  "claude-opus-4": [15, 75, 18.75, 1.5, null, null, null, null],
  "claude-sonnet-4-6": [3, 15, 3.75, 0.3, null, null, null, null],
  "claude-sonnet-4": [3, 15, 3.75, 0.3, 6, 22.5, 7.5, 0.6],
  "claude-3-5-haiku": [0.8, 4, 1, 0.08, null, null, null, null],
  "claude-3-opus": [15, 75, 18.75, 1.5, null, null, null, null],
  "claude-3-sonnet": [3, 15, 3.75, 0.3, null, null, null, null],
  "claude-3-haiku": [0.25, 1.25, 0.3, 0.03, null, null, null, null],
};

const [from, source] = process.argv.slice(2);
if (!from || !source) {
  console.error("usage: node scripts/prices.ts <litellm.json> <where it came from>");
  process.exit(2);
}
const litellm = JSON.parse(readFileSync(from, "utf8")) as Record<string, Record<string, unknown>>;
const models: PriceTable["models"] = {};
for (const [key, entry] of Object.entries(litellm).sort(([a], [b]) => a.localeCompare(b))) {
  if (typeof entry !== "object" || entry === null || typeof entry["input_cost_per_token"] !== "number") continue;
  if (entry["mode"] !== undefined && entry["mode"] !== "chat" && entry["mode"] !== "responses") continue;
  const bare = key.replace(/^[a-z_]+\//, "").replace(/^(us|eu|apac|global|jp|au)\.anthropic\./, "anthropic.");
  if (!FAMILIES.test(bare.replace(/^anthropic\./, ""))) continue;
  if (bare !== key && litellm[bare] !== undefined) continue;
  if (models[bare] !== undefined) continue;
  models[bare] = PRICE_FIELDS.map((f) => {
    const v = entry[f];
    return typeof v === "number" ? Number((v * 1e6).toPrecision(12)) : null;
  });
}
Object.assign(models, ANTHROPIC);
const table: PriceTable = { source, per: "1M tokens, US dollars", fields: [...PRICE_FIELDS], models };
writeFileSync(new URL("../data/prices.json", import.meta.url), `${JSON.stringify(table)}\n`);
console.log(`${Object.keys(models).length} models`);
