/**
 * No surface can bypass the shaping step (DESIGN §1): an answer reaches a person, a model or a file only as the
 * app's catalog answered it, shaped. So a surface (cli, mcp, live, tui, pi, web) takes no value from the layers
 * that read or make answers (the store, search, resume, threads, ask, the indexer) but a few named constants and
 * formatters of shaped answers, never redacts or escapes on its own (no `secrets/` import: the app did), and only
 * the CLI's one gate asks for secrets as written.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { REPO } from "../helpers/transcripts.ts";
import { importGraph, layerOf } from "./import-graph.ts";

const SURFACES = new Set(["cli", "mcp", "live", "tui", "pi", "web", "hooks"]);

/**
 * What a surface may take as a value from below `app/`, by module, or by module and name: constants, vocabulary
 * and formatters of answers already shaped. Everything else it asks the app for.
 */
const ALLOWED: Record<string, true | readonly string[]> = {
  "src/topology/citation.ts": true,
  "src/topology/types.ts": true,
  "src/topology/ids.ts": ["eventId"],
  "src/readers/vocabulary.ts": true,
  "src/readers/roots.ts": true,
  // the registry: which agents there are, their names, and how each starts
  "src/readers/agents.ts": [
    "AGENTS",
    "PROVIDERS",
    "AGENT_NAMES",
    "PROVIDER_CHOICES",
    "PROVIDER_WIDTH",
    "agentOf",
    "agentName",
  ],
  "src/store/pg/url.ts": true,
  "src/embedders/config.ts": ["describeEmbedder"],
  "src/embedders/setting.ts": ["isFloor"],
  "src/embedders/types.ts": ["EMBEDDER_KINDS"],
  "src/search/hybrid.ts": ["SEARCH_MODES"],
  "src/search/timeline.ts": ["MARK_GLYPH"],
  "src/ask/pack.ts": ["renderPack", "DEFAULT_PACK_BUDGET"],
};

/** Layers a surface may take anything from: the app (the catalog and its shaping) and what all layers share. */
const OPEN = new Set(["app", "common", "mcp", "live", "tui", "pi", "web", "cli", "hooks", "index.ts"]);

interface ValueImport {
  from: string;
  target: string;
  names: string[];
}

/** Each file's imports that bring values (not `import type`, not only `type` names), with the names taken. */
function valueImports(file: string): Array<{ spec: string; names: string[] }> {
  const source = ts.createSourceFile(file, readFileSync(join(REPO, file), "utf8"), ts.ScriptTarget.Latest, true);
  const out: Array<{ spec: string; names: string[] }> = [];
  for (const node of source.statements) {
    if (!ts.isImportDeclaration(node) || !ts.isStringLiteral(node.moduleSpecifier)) continue;
    const clause = node.importClause;
    if (clause?.isTypeOnly) continue;
    const names: string[] = [];
    if (clause?.name) names.push("default");
    const bindings = clause?.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) names.push("*");
    if (bindings && ts.isNamedImports(bindings))
      for (const e of bindings.elements) if (!e.isTypeOnly) names.push((e.propertyName ?? e.name).text);
    if (clause && names.length === 0) continue;
    out.push({ spec: node.moduleSpecifier.text, names });
  }
  return out;
}

function surfaceImports(): ValueImport[] {
  const graph = importGraph(REPO, ["src", "web"]);
  const found: ValueImport[] = [];
  for (const [file, targets] of graph) {
    if (!SURFACES.has(layerOf(file))) continue;
    const values = valueImports(file);
    for (const target of targets) {
      const base = target.replace(/\.tsx?$/, "");
      const used = values.find((v) => join(file, "..", v.spec).replace(/\.tsx?$/, "") === base);
      if (used) found.push({ from: file, target, names: used.names });
    }
  }
  return found;
}

describe("the shaping step cannot be bypassed", () => {
  it("surfaces take answers from the app only: no value from the layers that read or make them", () => {
    const imports = surfaceImports();
    expect(imports.length).toBeGreaterThan(100);
    const wrong = imports
      .filter((i) => !OPEN.has(layerOf(i.target)))
      .filter((i) => {
        const allowed = ALLOWED[i.target];
        return allowed === undefined || (allowed !== true && i.names.some((n) => !allowed.includes(n)));
      })
      .map((i) => `${i.from} takes ${i.names.join(", ")} from ${i.target}`);
    expect(wrong).toEqual([]);
  });

  it("no surface redacts or escapes on its own, and only the CLI's gate asks for secrets as written", () => {
    const imports = surfaceImports();
    expect(imports.filter((i) => i.target.startsWith("src/secrets/")).map((i) => i.from)).toEqual([]);
    const revealing = [...importGraph(REPO, ["src", "web"]).keys()].filter(
      (f) =>
        SURFACES.has(layerOf(f)) &&
        /\breveal\s*:\s*(true|reveal|revealAllowed)/.test(readFileSync(join(REPO, f), "utf8")),
    );
    expect(revealing).toEqual(["src/cli/app.ts"]);
  });

  it("the check itself sees a value import, and not a type-only one", () => {
    const names = valueImports("src/cli/commands/search.ts");
    expect(names.some((v) => v.spec.endsWith("search/hybrid.ts") && v.names.includes("SEARCH_MODES"))).toBe(true);
    expect(names.some((v) => v.spec.endsWith("app/cairn.ts"))).toBe(false);
  });
});
