/**
 * The price tables the usage report prices calls with: the one cairn ships (data/prices.json), then a table the
 * user keeps in LiteLLM's format (`$XDG_CONFIG_HOME/cairn/prices.json`, or the file `CAIRN_PRICES` names), whose
 * entries win. A user's file that cannot be read is an error naming it, never a silent fallback.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { CairnError } from "../common/errors.ts";
import { Prices, type PriceTable, tableOfLitellm } from "../usage/prices.ts";
import { configPath } from "./config.ts";
import type { Env } from "./open.ts";

const SHIPPED_URL = new URL("../../data/prices.json", import.meta.url);
let shipped: PriceTable | null = null;
const cache = new Map<string, Prices>();

/** The user's own price file: named by `CAIRN_PRICES`, else beside the settings file. */
export function userPricesPath(env: Env): string {
  return env["CAIRN_PRICES"] || join(dirname(configPath(env)), "prices.json");
}

export function loadPrices(env: Env): Prices {
  shipped ??= JSON.parse(readFileSync(SHIPPED_URL, "utf8")) as PriceTable;
  const path = userPricesPath(env);
  let text: string | null = null;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" || env["CAIRN_PRICES"])
      throw new CairnError("usage", `cannot read the price file ${path}: ${code}`);
  }
  const key = `${path}\n${text ?? ""}`;
  const known = cache.get(key);
  if (known) return known;
  const tables = [shipped];
  if (text !== null) tables.push(userTable(path, text));
  const prices = new Prices(tables);
  cache.set(key, prices);
  return prices;
}

function userTable(path: string, text: string): PriceTable {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new CairnError("usage", `the price file ${path} is not JSON: ${(error as Error).message}`);
  }
  if (typeof json !== "object" || json === null || Array.isArray(json))
    throw new CairnError("usage", `the price file ${path} is not an object of models (LiteLLM's format)`);
  const table = tableOfLitellm(json as Record<string, unknown>, path);
  if (Object.keys(table.models).length === 0)
    throw new CairnError(
      "usage",
      `the price file ${path} prices no model`,
      'LiteLLM\'s format: an object of models, each with "input_cost_per_token" and "output_cost_per_token".',
    );
  return table;
}
