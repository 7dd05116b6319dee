/**
 * Static checks behind seed 001's audit checklist that behaviour tests cannot see: what the extension imports,
 * which pi calls it never makes, and that it keeps no state at module level.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const srcPi = resolve(dirname(fileURLToPath(import.meta.url)), "../../src/pi");
const files = readdirSync(srcPi, { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith(".ts"))
  .map((file) => ({ name: relative(srcPi, join(srcPi, file)), text: readFileSync(join(srcPi, file), "utf8") }));

const PI_PACKAGES = ["@earendil-works/pi-coding-agent", "@earendil-works/pi-ai", "@earendil-works/pi-tui"];

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

  it("keeps no mutable state at module level", () => {
    expect(matches(/^(export\s+)?(let|var)\s/)).toEqual([]);
    const collections = matches(/^(export\s+)?const\s+\w+\s*(:[^=]+)?=\s*new\s+(Map|Set|WeakMap|Array)\b/);
    // Lookup tables are fine when typed read-only.
    expect(collections.filter((line) => !/:\s*Readonly(Set|Map)</.test(line))).toEqual([]);
  });
});
