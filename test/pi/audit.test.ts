/**
 * Static checks behind seed 001's audit checklist that behaviour tests cannot see: what the extension imports,
 * which pi calls it never makes, and that it keeps no state at module level.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { findModuleState } from "./helpers/module-state.ts";

const srcPi = resolve(dirname(fileURLToPath(import.meta.url)), "../../src/pi");
const files = readdirSync(srcPi, { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith(".ts"))
  .map((file) => ({ name: relative(srcPi, join(srcPi, file)), text: readFileSync(join(srcPi, file), "utf8") }));

// What pi provides to extensions (its loader maps them to its own copies).
const PI_PACKAGES = ["@earendil-works/pi-coding-agent", "@earendil-works/pi-ai", "@earendil-works/pi-tui", "typebox"];

function matches(pattern: RegExp): string[] {
  return files.flatMap(({ name, text }) =>
    text.split("\n").flatMap((line, index) => (pattern.test(line) ? [`${name}:${index + 1}: ${line.trim()}`] : [])),
  );
}

describe("audit checklist (static)", () => {
  it("finds the extension's sources", () => {
    expect(files.map((file) => file.name)).toEqual(expect.arrayContaining(["index.ts", "sequence/runner.ts"]));
  });

  it("imports pi only through its public package entry points", () => {
    const specifiers = files.flatMap(({ text }) =>
      [...text.matchAll(/from "([^"]+)"/g)].map((match) => match[1] ?? ""),
    );
    const external = specifiers.filter((specifier) => !specifier.startsWith(".") && !specifier.startsWith("node:"));
    expect(external.length).toBeGreaterThan(0);
    expect(external.filter((specifier) => !PI_PACKAGES.includes(specifier))).toEqual([]);
  });

  it("never sends a slash command back through the prompt path", () => {
    expect(matches(/sendUserMessage\(\s*[`"']\//)).toEqual([]);
    expect(matches(/expandPromptTemplates/)).toEqual([]);
  });

  it("never labels entries or renders snapshots, so they stay out of /tree inspection", () => {
    expect(matches(/\bsetLabel\(|registerEntryRenderer\(|appendLabelChange\(/)).toEqual([]);
  });

  it("persists only through session entries: no file writes", () => {
    expect(matches(/\b(writeFile|appendFile|mkdir|rm|unlink)(Sync)?\(/)).toEqual([]);
  });

  it("keeps no state at module level: nothing a module creates on import can be shared by instances", () => {
    const findings = files.flatMap(({ name, text }) =>
      findModuleState(name, text).map((finding) => `${name}:${finding.line}: ${finding.text} (${finding.why})`),
    );
    expect(findings).toEqual([]);
  });

  it("the module-state check catches state however it is created, and lets inert declarations pass", () => {
    const caught = `
      let counter = 0;
      var legacy;
      const relay = createRunRelay();
      const routes = new Map<string, string>();
      const pending: string[] = [];
      const cache = {};
      const message = \`id \${nextId()}\`;
      registerEverything();
      export default createCairnExtension(lazyIndexSources());
      class Registry { static instances = new Set(); }
      const BY_NAME: Record<string, ReadonlySet<string>> = { a: new Set(["b"]) };
    `;
    expect(findModuleState("caught.ts", caught).map((finding) => finding.text)).toEqual([
      "let counter = 0;",
      "var legacy;",
      "relay = createRunRelay()",
      "routes = new Map<string, string>()",
      "pending: string[] = []",
      "cache = {}",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the expected text is source holding a template
      "message = `id ${nextId()}`",
      "registerEverything();",
      "export default createCairnExtension(lazyIndexSources());",
      "static instances = new Set();",
      'BY_NAME: Record<string, ReadonlySet<string>> = { a: new Set(["b"]) }',
    ]);
    const inert = `
      import { x } from "./x.ts";
      export { y } from "./y.ts";
      export const NAMES = ["a", "b"] as const;
      const TABLE: ReadonlySet<string> = new Set(["a"]);
      const BY_KEY: Readonly<Record<string, ReadonlySet<string>>> = { a: new Set(["b"]) };
      const ALL = ["x", ...NAMES] as const;
      const LIST: readonly string[] = ["a"];
      const PATTERN = /a+/g;
      const TEXT = \`a \${NAMES}\`;
      const handler = () => 1;
      export const KEY = "k";
      export default function extension() {}
      export interface Shape { a: number }
      type Alias = string;
      class Plain { field = 1; }
    `;
    expect(findModuleState("inert.ts", inert)).toEqual([]);
  });
});
