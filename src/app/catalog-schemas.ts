/**
 * The questions' input schemas as the app checks them: data/catalog-schemas.json, converted from
 * `catalog/inputs.ts` by
 * `node scripts/catalog-schemas.ts` (generated data beside the other shipped tables; test/app/catalog.test.ts
 * fails when it differs from the conversion). Read once, on the first input checked. It sits two folders below
 * the package root, as every file of the bundle does, so the same relative URL finds the data in both.
 */
import { readFileSync } from "node:fs";
import type { JsonSchema } from "./catalog/check.ts";

export const CATALOG_SCHEMAS_URL = new URL("../../data/catalog-schemas.json", import.meta.url);

let schemas: Record<string, JsonSchema> | null = null;

export function inputSchema(name: string): JsonSchema {
  schemas ??= JSON.parse(readFileSync(CATALOG_SCHEMAS_URL, "utf8")) as Record<string, JsonSchema>;
  const schema = schemas[name];
  if (!schema) throw new Error(`no input schema '${name}' in data/catalog-schemas.json`);
  return schema;
}
