/**
 * Writes src/mcp/tool-schemas.ts: the JSON schemas `cairn mcp` serves, converted once from the tools' zod
 * definitions as the MCP SDK converts them (draft-7; input schemas as accepted, output schemas as produced).
 * Run it after changing a tool's zod definition: `node scripts/mcp-schemas.ts && npm run fix`; test/mcp/protocol.test.ts fails
 * until then.
 */
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { toolJsonSchemas } from "../src/mcp/tool-zod-json.ts";

const out = join(dirname(fileURLToPath(import.meta.url)), "../src/mcp/tool-schemas.ts");
const body = `/**
 * The tools' JSON schemas as \`cairn mcp\` lists them and checks arguments against them, written by
 * \`node scripts/mcp-schemas.ts\` from the zod definitions (src/mcp/tools/*-schema.ts). Do not edit by hand:
 * test/mcp/protocol.test.ts fails when they differ from the zod definitions' conversion.
 */
import type { JsonSchema } from "./check-args.ts";

export const TOOL_SCHEMAS: Record<string, { inputSchema: JsonSchema; outputSchema: JsonSchema }> = ${JSON.stringify(toolJsonSchemas(), null, 2)};
`;
writeFileSync(out, body);
console.log(`wrote ${out}`);
