/**
 * cairn's import graph and the rules it must keep (DESIGN §1): data flows down one path — readers → topology →
 * store (embedders beside it) → indexer → search/threads/resume/ask → app → surfaces — and no import runs back
 * up it; no two modules import each other, directly or round a loop. Type-only and dynamic imports count too.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

/** A folder's place in the flow: a module may import its own folder and folders of the same or a lower rank. */
export const RANKS: Record<string, number> = {
  common: 0,
  readers: 1,
  secrets: 1,
  topology: 2,
  store: 3,
  embedders: 3,
  indexer: 4,
  search: 5,
  threads: 5,
  resume: 5,
  ask: 5,
  usage: 5,
  app: 6,
  mcp: 7,
  live: 7,
  pi: 7,
  tui: 7,
  hooks: 7,
  web: 7,
  cli: 8,
  "index.ts": 9,
};

export type Graph = Map<string, string[]>;

/** Files under `root` (relative paths, e.g. `src/app/cairn.ts`) and the project files each imports. */
export function importGraph(repo: string, roots: readonly string[]): Graph {
  const graph: Graph = new Map();
  const walk = (dir: string): string[] =>
    readdirSync(join(repo, dir), { withFileTypes: true }).flatMap((d) =>
      d.isDirectory() ? walk(join(dir, d.name)) : /\.tsx?$/.test(d.name) ? [join(dir, d.name)] : [],
    );
  for (const file of roots.flatMap(walk)) {
    const info = ts.preProcessFile(readFileSync(join(repo, file), "utf8"), true, true);
    const targets = info.importedFiles
      .map((f) => f.fileName)
      .filter((spec) => spec.startsWith("."))
      .map((spec) => relative(repo, resolve(repo, dirname(file), spec)));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The folder (layer) a file belongs to: `src/search/x.ts` → `search`, `web/main.ts` → `web`. */
export function layerOf(file: string): string {
  const parts = file.split("/");
  if (parts[0] === "web") return "web";
  return parts.length === 2 ? parts[1]! : parts[1]!;
}

export interface Violation {
  kind: "upward" | "unknown_layer" | "cycle";
  detail: string;
}

/** Every import that runs back up the flow, every file in a folder the flow does not name, and every cycle. */
export function violations(graph: Graph): Violation[] {
  const out: Violation[] = [];
  for (const [file, targets] of graph) {
    const from = layerOf(file);
    if (RANKS[from] === undefined) out.push({ kind: "unknown_layer", detail: `${file} is in '${from}'` });
    for (const target of targets) {
      const to = layerOf(target);
      if (to === from || RANKS[from] === undefined || RANKS[to] === undefined) continue;
      if (RANKS[to]! > RANKS[from]!)
        out.push({ kind: "upward", detail: `${file} imports ${target} (${from} → ${to})` });
    }
  }
  for (const cycle of cycles(graph)) out.push({ kind: "cycle", detail: cycle.join(" → ") });
  const folders: Graph = new Map();
  for (const [file, targets] of graph) {
    const from = layerOf(file);
    const list = folders.get(from) ?? [];
    for (const t of targets) if (layerOf(t) !== from && !list.includes(layerOf(t))) list.push(layerOf(t));
    folders.set(from, list);
  }
  for (const cycle of cycles(folders)) out.push({ kind: "cycle", detail: `folders ${cycle.join(" → ")}` });
  return out;
}

/** One cycle per strongly connected component of more than one node (or a node importing itself). */
export function cycles(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push([...component.reverse(), component[0]!]);
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}
