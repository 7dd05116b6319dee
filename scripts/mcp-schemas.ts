/**
 * Writes data/mcp-tool-schemas.json: the JSON schemas `cairn mcp` serves, converted once from the tools' zod
 * definitions as the MCP SDK converts them (draft-7; input schemas as accepted, output schemas as produced).
 * Run it after changing a tool's zod definition: `node scripts/mcp-schemas.ts`; test/mcp/protocol.test.ts fails
 * until then.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { TOOL_SCHEMAS_URL } from "../src/mcp/tool-schemas.ts";
import { toolJsonSchemas } from "../src/mcp/tool-zod-json.ts";

writeFileSync(TOOL_SCHEMAS_URL, `${JSON.stringify(toolJsonSchemas(), null, 1)}\n`);
console.log(`wrote ${fileURLToPath(TOOL_SCHEMAS_URL)}`);
