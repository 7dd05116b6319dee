/**
 * docs/ARCHITECTURE.md stays true to the code, cheaply: every repository path it writes in backticks exists (a
 * `*` or a `<placeholder>` must match at least one file), every bare file name it writes (`cairn.ts`,
 * `sqlite-*.ts`) is some file's name, every function it writes as `name()` (or `a.b(args)`) is found in src/ as
 * something called, declared or assigned, and every type or constant it writes alone (`ReadonlyStore`,
 * `CHUNK_GROUPS`) is a word of src/, web/ or scripts/. A renamed or deleted file or name fails here until the page
 * is corrected.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO } from "../helpers/transcripts.ts";

const DOC = "docs/ARCHITECTURE.md";
/** The folders whose paths the page may name; a backticked token starting with one of these is a path. */
const ROOTS = ["src", "web", "scripts", "bench", "test", "data", "docs", "bin"];
/** Where a bare file name must be found. */
const NAME_ROOTS = ["src", "web", "scripts", "bench", "test"];

interface Mentions {
  paths: string[];
  names: string[];
  calls: string[];
  types: string[];
}

/** The backticked paths, bare `.ts`/`.tsx` file names, called identifiers and type or constant names of a text. */
function mentions(markdown: string): Mentions {
  const spans = [...markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "").matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);
  const paths = new Set<string>();
  const names = new Set<string>();
  const calls = new Set<string>();
  const types = new Set<string>();
  const pathToken = new RegExp(`(?:^|[\\s(])((?:${ROOTS.join("|")})/[^\\s\`,;()"']*)`, "g");
  for (const span of spans) {
    for (const m of span.matchAll(pathToken)) {
      const path = m[1]!.replace(/[.:]$/, "");
      if (!path.includes("…")) paths.add(path);
    }
    if (/^[\w.*-]+\.tsx?$/.test(span)) names.add(span);
    const call = /^([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\(.*\)$/.exec(span);
    if (call) calls.add(call[1]!.split(".").at(-1)!);
    const type = /^([A-Z][\w$]*)(?:<.*>)?$/.exec(span);
    if (type) types.add(type[1]!);
  }
  return { paths: [...paths], names: [...names], calls: [...calls], types: [...types] };
}

function walk(dir: string): string[] {
  if (!existsSync(join(REPO, dir))) return [];
  return readdirSync(join(REPO, dir), { withFileTypes: true }).flatMap((d) =>
    d.name === "node_modules"
      ? []
      : d.isDirectory()
        ? [`${dir}/${d.name}/`, ...walk(`${dir}/${d.name}`)]
        : [`${dir}/${d.name}`],
  );
}

/** A path as a pattern: `*` any characters of one segment, `<name>` one whole segment (or part of one). */
function pattern(path: string): RegExp {
  const escaped = path
    .split(/(\*|<[^>]+>)/)
    .map((part) => (part === "*" || /^<[^>]+>$/.test(part) ? "[^/]+" : part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")))
    .join("");
  return new RegExp(`^${escaped}/?$`);
}

/** The paths that name nothing in the repository. */
function missingPaths(paths: readonly string[], files: () => readonly string[]): string[] {
  return paths.filter((p) => {
    if (/[*<]/.test(p)) {
      const re = pattern(p);
      return !files().some((f) => re.test(f));
    }
    const full = join(REPO, p);
    return !existsSync(full) || (p.endsWith("/") && !statSync(full).isDirectory());
  });
}

/** The bare file names (`*` any characters) that are no file's name. */
function missingNames(names: readonly string[], basenames: ReadonlySet<string>): string[] {
  return names.filter((n) => {
    if (!n.includes("*")) return !basenames.has(n);
    const re = new RegExp(`^${n.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replaceAll("*", ".*")}$`);
    return ![...basenames].some((b) => re.test(b));
  });
}

/** The identifiers not found in `source` as something called, declared or assigned. */
function missingCalls(calls: readonly string[], source: string): string[] {
  return calls.filter((name) => !new RegExp(`\\b${name.replace(/\$/g, "\\$")}\\s*[(<:=]`).test(source));
}

/** The names not found in `source` as a word. */
function missingWords(words: readonly string[], source: string): string[] {
  return words.filter((w) => !new RegExp(`\\b${w.replace(/\$/g, "\\$")}\\b`).test(source));
}

/** The text of every TypeScript file under these folders. */
function sources(dirs: readonly string[]): string {
  return dirs
    .flatMap(walk)
    .filter((f) => /\.tsx?$/.test(f))
    .map((f) => readFileSync(join(REPO, f), "utf8"))
    .join("\n");
}

describe("docs/ARCHITECTURE.md", () => {
  const found = mentions(readFileSync(join(REPO, DOC), "utf8"));
  let all: string[] | null = null;
  const files = () => (all ??= ROOTS.flatMap(walk));

  it("names only paths that exist", () => {
    expect(found.paths.length).toBeGreaterThan(50);
    expect(missingPaths(found.paths, files)).toEqual([]);
  });

  it("names only files that exist", () => {
    const basenames = new Set(NAME_ROOTS.flatMap(walk).map((f) => f.slice(f.lastIndexOf("/") + 1)));
    expect(found.names.length).toBeGreaterThan(30);
    expect(missingNames(found.names, basenames)).toEqual([]);
  });

  it("names only functions found in src/", () => {
    expect(found.calls.length).toBeGreaterThan(30);
    expect(missingCalls(found.calls, sources(["src"]))).toEqual([]);
  });

  it("names only types and constants found in src/, web/ or scripts/", () => {
    const source = sources(["src", "web", "scripts"]);
    expect(found.types.length).toBeGreaterThan(20);
    expect(missingWords(found.types, source)).toEqual([]);
  });

  it("the check itself catches a wrong path, pattern, file name, function and type", () => {
    const sample = [
      "`src/app/cairn.ts` and `src/app/no-such-file.ts`, `src/store/sqlite/*.ts`, `src/store/mongo-*.ts`,",
      "`readers/`, run `node scripts/catalog-schemas.ts`, `test/<folder>/<file>.test.ts`, `src/nowhere/`,",
      "`cairn.ts`, `missing-name.ts`, `sqlite-*.ts`, `mongo-*.ts`, `createCairn()`, `createIndexApp()`,",
      "`app.search({ query })`, `ReadonlyStore`, `Shaped<SearchAnswer>`, `IndexApp`, `CHUNK_GROUP`.",
      "```",
      "`src/inside/a/fence.ts`",
      "```",
    ].join("\n");
    const got = mentions(sample);
    expect(got.paths).not.toContain("src/inside/a/fence.ts");
    expect(got.paths).not.toContain("readers/");
    expect(missingPaths(got.paths, files)).toEqual(["src/app/no-such-file.ts", "src/store/mongo-*.ts", "src/nowhere/"]);
    expect(missingNames(got.names, new Set(["cairn.ts", "sqlite-store.ts"]))).toEqual([
      "missing-name.ts",
      "mongo-*.ts",
    ]);
    expect(got.types).toEqual(["ReadonlyStore", "Shaped", "IndexApp", "CHUNK_GROUP"]);
    expect(
      missingWords(got.types, "interface ReadonlyStore {}\ntype Shaped<T> = T;\nconst CHUNK_GROUPS = [];"),
    ).toEqual(["IndexApp", "CHUNK_GROUP"]);
    expect(missingCalls(got.calls, "export function createCairn(opts) {}\nsearch(input)")).toEqual(["createIndexApp"]);
  });
});
