/**
 * The tools' JSON schemas as `cairn mcp` lists them and checks arguments against them: `data/mcp-tool-schemas.json`,
 * written by `node scripts/mcp-schemas.ts` from the zod definitions (src/mcp/tools/*-schema.ts). Generated data, so
 * it lives beside the other shipped tables, not in a source file; do not edit it by hand:
 * test/mcp/protocol.test.ts fails when it differs from the zod definitions' conversion.
 */
import { readFileSync } from "node:fs";
import type { JsonSchema } from "../app/catalog/check.ts";

export type ToolSchemas = Record<string, { inputSchema: JsonSchema; outputSchema: JsonSchema }>;

export const TOOL_SCHEMAS_URL = new URL("../../data/mcp-tool-schemas.json", import.meta.url);

export const TOOL_SCHEMAS: ToolSchemas = JSON.parse(readFileSync(TOOL_SCHEMAS_URL, "utf8")) as ToolSchemas;
