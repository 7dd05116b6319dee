/**
 * Writes data/catalog-schemas.json: the JSON schemas the app checks every question's input against, converted from
 * the zod shapes of src/app/catalog/inputs.ts. Run it after changing one: `node scripts/catalog-schemas.ts`;
 * test/app/catalog.test.ts fails until then. The MCP tools' schemas derive from the same shapes: run
 * `node scripts/mcp-schemas.ts` too.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { catalogJsonSchemas } from "../src/app/catalog/input-json.ts";
import { CATALOG_SCHEMAS_URL } from "../src/app/catalog-schemas.ts";

writeFileSync(CATALOG_SCHEMAS_URL, `${JSON.stringify(catalogJsonSchemas(), null, 1)}\n`);
console.log(`wrote ${fileURLToPath(CATALOG_SCHEMAS_URL)}`);
