/**
 * The catalog: each question declared once, its input schema the one every surface derives from. The JSON schemas
 * the app checks inputs against are the conversion of the zod shapes; the MCP tools' inputs are the catalog's
 * fields (narrowed, never renamed); the history API's routes name catalog questions, and their path fields are
 * input fields of those questions.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { checkArgs } from "../../src/app/catalog/check.ts";
import { CATALOG } from "../../src/app/catalog/index.ts";
import { catalogJsonSchemas } from "../../src/app/catalog/input-json.ts";
import { INPUTS } from "../../src/app/catalog/inputs.ts";
import { HISTORY_ROUTES, historyPath, matchHistoryPath } from "../../src/app/catalog/routes.ts";
import { CATALOG_SCHEMAS_URL, inputSchema } from "../../src/app/catalog-schemas.ts";
import { TOOL_QUESTIONS } from "../../src/mcp/tool-list.ts";
import { TOOL_SCHEMAS } from "../../src/mcp/tool-schemas.ts";

describe("the catalog", () => {
  it("ships the JSON schemas its zod inputs convert to (run `node scripts/catalog-schemas.ts` after a change)", () => {
    expect(JSON.parse(readFileSync(CATALOG_SCHEMAS_URL, "utf8"))).toEqual(catalogJsonSchemas());
  });

  it("declares each question once, under its own name, with a schema for every input the surfaces send", () => {
    for (const [name, q] of Object.entries(CATALOG)) {
      expect(q.name, name).toBe(name);
      if (q.input !== undefined) expect(Object.keys(INPUTS)).toContain(q.input);
    }
  });

  it("MCP tools take their questions' fields under the same names", () => {
    for (const [tool, question] of Object.entries(TOOL_QUESTIONS)) {
      const fields = Object.keys((TOOL_SCHEMAS[tool]!.inputSchema["properties"] ?? {}) as object);
      const catalogFields = Object.keys((inputSchema(question)["properties"] ?? {}) as object);
      for (const f of fields) expect(catalogFields, `${tool}.${f}`).toContain(f);
    }
  });

  it("the history API's routes ask catalog questions, and the page's URLs come back to the same question", () => {
    for (const route of HISTORY_ROUTES) {
      const bare = "bare" in route && route.bare;
      const fields = bare ? [] : Object.keys((inputSchema(route.question)["properties"] ?? {}) as object);
      for (const part of route.path.split("/").filter((p) => p.startsWith(":")))
        expect(fields, `${route.path}`).toContain(part.slice(1));
      const input = Object.fromEntries(
        route.path
          .split("/")
          .filter((p) => p.startsWith(":"))
          .map((p) => [p.slice(1), "abc/def 1"]),
      );
      const url = new URL(historyPath(route.question, { ...input, limit: 3 }), "http://x");
      const segments = url.pathname.split("/").slice(3).map(decodeURIComponent);
      expect(matchHistoryPath(segments)).toEqual({ question: route.question, fields: input });
    }
  });

  it("rules across fields live in the question: a budget with a ratio is refused wherever it comes from", () => {
    expect(() => CATALOG.brief.rules!({ budget_tokens: 1000, ratio: 0.1 })).toThrow(/budget or a ratio/);
    expect(() => CATALOG.brief.rules!({ at: "abcd", step: 2 })).toThrow(/an event or a step, not both/);
    expect(checkArgs(inputSchema("sessions"), { provider: "codex" })).toEqual({
      ok: true,
      args: { provider: ["codex"] },
    });
  });
});
