/**
 * What a model call cost: the shipped price table (data/prices.json, made by scripts/prices.ts from LiteLLM's), or a
 * table the user gives in LiteLLM's own format, looked up by the model name the agent wrote, applied to the tokens it
 * recorded. Prices are US dollars per million tokens.
 */
import type { UsageBucket } from "./rollup.ts";

/** LiteLLM's names for the prices read, in the order a table row lists them. */
export const PRICE_FIELDS = [
  "input_cost_per_token",
  "output_cost_per_token",
  "cache_creation_input_token_cost",
  "cache_read_input_token_cost",
  "input_cost_per_token_above_200k_tokens",
  "output_cost_per_token_above_200k_tokens",
  "cache_creation_input_token_cost_above_200k_tokens",
  "cache_read_input_token_cost_above_200k_tokens",
] as const;

export interface PriceTable {
  /** Where the prices came from (a LiteLLM release, a user's file). */
  source: string;
  per: string;
  fields: string[];
  models: Record<string, Array<number | null>>;
}

export interface ModelPrice {
  /** The table's name for the model the agent named. */
  name: string;
  /** Priced by Anthropic's rules (a Claude model). */
  anthropic: boolean;
  /** Fast mode's price multiplier. */
  fast: number;
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
  above200k: { input: number; output: number; cacheWrite: number; cacheRead: number } | null;
}

/** A user's table in LiteLLM's format (dollars per token) as rows of this one. */
export function tableOfLitellm(json: Record<string, unknown>, source: string): PriceTable {
  const models: PriceTable["models"] = {};
  for (const [name, entry] of Object.entries(json)) {
    if (typeof entry !== "object" || entry === null) continue;
    const e = entry as Record<string, unknown>;
    if (typeof e["input_cost_per_token"] !== "number") continue;
    models[name] = PRICE_FIELDS.map((f) => (typeof e[f] === "number" ? (e[f] as number) * 1e6 : null));
  }
  return { source, per: "1M tokens, US dollars", fields: [...PRICE_FIELDS], models };
}

/** Prices by model name: the later tables' entries over the earlier ones'. */
export class Prices {
  private readonly rows = new Map<string, Array<number | null>>();
  private readonly found = new Map<string, ModelPrice | null>();
  private readonly names: string[];
  readonly sources: string[];

  constructor(tables: readonly PriceTable[]) {
    for (const t of tables) for (const [name, row] of Object.entries(t.models)) this.rows.set(name.toLowerCase(), row);
    // Longest first: the most specific name that fits a model wins.
    this.names = [...this.rows.keys()].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
    this.sources = tables.map((t) => t.source);
  }

  /** The price of the model the agent named, or null when the table has none. */
  of(model: string | null): ModelPrice | null {
    if (model === null) return null;
    const known = this.found.get(model);
    if (known !== undefined) return known;
    const name = this.match(model);
    const price = name === null ? null : priceOf(name, this.rows.get(name)!);
    this.found.set(model, price);
    return price;
  }

  /**
   * The table's name for a model: the name itself, without a provider's prefix or a Bedrock/Vertex suffix, or the
   * longest table name it contains at word boundaries (`claude-sonnet-4-20250514` is priced as `claude-sonnet-4`).
   */
  private match(model: string): string | null {
    const lower = model.toLowerCase();
    const bare = lower
      .replace(/^.*\//, "")
      .replace(/^(us|eu|apac|global|jp|au)\./, "")
      .replace(/^anthropic\./, "")
      .replace(/-v\d+(:\d+)?$/, "")
      .replace(/@/g, "-");
    for (const candidate of [lower, bare]) if (this.rows.has(candidate)) return candidate;
    for (const name of this.names) {
      const at = bare.indexOf(name);
      if (at < 0) continue;
      const before = at === 0 ? "" : bare[at - 1]!;
      const after = bare[at + name.length] ?? "";
      if (!/[a-z0-9]/.test(before) && !/[a-z0-9]/.test(after)) return name;
    }
    return null;
  }
}

function priceOf(name: string, row: ReadonlyArray<number | null>): ModelPrice {
  const at = (i: number) => row[i] ?? null;
  const input = at(0) ?? 0;
  const claude = name.includes("claude");
  // Where a table leaves cache prices out: Anthropic's rule (writes at 1.25×, reads at 0.1× the input), else the input.
  const cacheWrite = at(2) ?? (claude ? input * 1.25 : input);
  const cacheRead = at(3) ?? (claude ? input * 0.1 : input);
  const above =
    at(4) === null
      ? null
      : {
          input: at(4)!,
          output: at(5) ?? at(1) ?? 0,
          cacheWrite: at(6) ?? at(4)! * (claude ? 1.25 : 1),
          cacheRead: at(7) ?? at(4)! * (claude ? 0.1 : 1),
        };
  return {
    name,
    anthropic: claude,
    fast: fastFactor(name),
    input,
    output: at(1) ?? 0,
    cacheWrite,
    cacheRead,
    above200k: above,
  };
}

/** Fast mode's price multiplier, per Anthropic's model (none elsewhere). */
function fastFactor(name: string): number {
  if (/claude-opus-4-[67]/.test(name)) return 6;
  if (/claude-opus-4-8/.test(name)) return 2;
  return 1;
}

/**
 * What a row of calls (rollup.ts) cost in dollars. Anthropic bills tokens above 200k of a field at the higher rate
 * field by field (the row sums each field's tokens above it); other providers bill a whole call at the higher rate
 * once its prompt passes 200k (such calls have rows of their own).
 */
export function bucketCost(b: UsageBucket, p: ModelPrice): number {
  const m = 1e-6;
  const hourWrite = 2 * p.input;
  let cost: number;
  if (p.anthropic) {
    const a = p.above200k;
    // Each field: all its tokens at the base rate, and those above the tier at the difference.
    const field = (i: number, n: number, base: number, high: number | undefined) =>
      n * base + (high === undefined ? 0 : b.above[i]! * (high - base));
    cost =
      field(0, b.input, p.input, a?.input) +
      field(1, b.output, p.output, a?.output) +
      field(2, b.cache_read, p.cacheRead, a?.cacheRead) +
      field(3, b.cache_write, p.cacheWrite, a?.cacheWrite) +
      field(4, b.cache_write_1h, hourWrite, a ? 2 * a.input : undefined);
    cost *= b.fast ? p.fast : 1;
  } else {
    const q = p.above200k && b.high ? p.above200k : p;
    cost =
      b.input * q.input +
      b.output * q.output +
      b.cache_write * q.cacheWrite +
      b.cache_write_1h * hourWrite +
      b.cache_read * q.cacheRead;
  }
  return cost * m;
}
