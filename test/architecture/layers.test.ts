/** The import graph keeps DESIGN §1's flow: nothing imports back up it, and nothing imports in a loop. */
import { describe, expect, it } from "vitest";
import { REPO } from "../helpers/transcripts.ts";
import { cycles, type Graph, importGraph, violations } from "./import-graph.ts";

describe("the import graph", () => {
  it("has no import back up the flow, no folder outside it and no cycle, in src/ and web/", () => {
    const graph = importGraph(REPO, ["src", "web"]);
    expect(graph.size).toBeGreaterThan(150);
    expect(violations(graph).map((v) => `${v.kind}: ${v.detail}`)).toEqual([]);
  });

  it("surfaces hold no SQL and no id resolution: only the store opens the database", () => {
    const graph = importGraph(REPO, ["src"]);
    for (const [file, targets] of graph) {
      if (/^src\/(cli|mcp|pi|live|tui|web)\//.test(file)) {
        expect(
          targets.filter((t) => /^src\/store\/sqlite\/|^src\/store\/resolve/.test(t)),
          file,
        ).toEqual([]);
        expect(
          targets.filter((t) => /^src\/indexer\/(indexer|lock|watch)/.test(t)),
          file,
        ).toEqual([]);
      }
    }
  });

  it("the check itself catches an upward import, a cycle between files and a cycle between folders", () => {
    const g: Graph = new Map([
      ["src/store/a.ts", ["src/search/b.ts"]],
      ["src/search/b.ts", ["src/store/a.ts"]],
      ["src/threads/c.ts", ["src/resume/d.ts"]],
      ["src/resume/d.ts", ["src/threads/e.ts"]],
      ["src/threads/e.ts", []],
      ["src/misc/f.ts", []],
    ]);
    const found = violations(g).map((v) => v.kind);
    expect(found).toContain("upward");
    expect(found).toContain("unknown_layer");
    expect(found.filter((k) => k === "cycle")).toHaveLength(3);
    expect(cycles(new Map([["a", ["a"]]]))).toEqual([["a", "a"]]);
  });
});
