/**
 * Bundles the built command into dist/bundle with esbuild, after `tsc` has written dist/: one ES module per entry
 * (the CLI, the parse worker, the terminal UI's search worker, the PostgreSQL worker) and shared chunks beside them,
 * each module a command loads on demand (`await import()`) kept as its own chunk so it stays lazy. An installed
 * `cairn` runs dist/bundle/cairn.js (bin/cairn.js); a search loads a handful of files instead of eighty
 * (docs/performance.md, "Cold starts, fourth round"). The library export and the pi extension stay on dist/.
 *
 * Layout the sources rely on: every bundle file sits directly in dist/bundle, two folders below the package root,
 * as dist/<area>/<module>.js does, so `new URL("../../data/…", import.meta.url)` and the walk up to package.json
 * find the same files; the workers are entries named as their sources (`./parse-worker.js` beside any chunk).
 * Dependencies stay external: native modules find their binaries relative to their own package, and the SDKs are
 * loaded only by the commands that use them. One exception: better-sqlite3's JavaScript (fifteen CommonJS files and a
 * search for its binary) is bundled into dist/bundle/better-sqlite3.cjs, which loads the binary from the installed
 * package, or the package itself when its version is not the one bundled (docs/performance.md, sixth round).
 *
 * Run by `npm run build`; `node scripts/build-cli.ts --dev` keeps the output readable.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "dist", "bundle");
const dev = process.argv.includes("--dev");

/**
 * Node's own modules are taken with `process.getBuiltinModule` instead of `import`: an ES import of a builtin builds
 * its ES facade, which reads every export, and `node:fs`'s getters load the file streams and `node:util`'s the text
 * codecs, about 3 ms of CPU for the six most modules use (docs/performance.md, seventh round). `import { a, type B,
 * c as d } from "node:x"` becomes `const { a, c: d } = process.getBuiltinModule("node:x")`, `import * as x` and a
 * default import the module itself; type-only imports stay, for the compiler to drop.
 */
const BUILTIN_IMPORT = /^import\s+(?!type\s)(\{[^}]*\}|\*\s+as\s+\w+|\w+)\s+from\s+"(node:[\w/]+)";?$/gm;
function builtinsByGetter(text: string): string {
  return text.replace(BUILTIN_IMPORT, (line, what: string, name: string) => {
    const take = `process.getBuiltinModule(${JSON.stringify(name)})`;
    if (!what.startsWith("{")) return `const ${what.replace(/^\*\s+as\s+/, "")} = ${take};`;
    const values = what
      .slice(1, -1)
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s !== "" && !s.startsWith("type "))
      .map((s) => s.replace(/^(\w+)\s+as\s+(\w+)$/, "$1: $2"));
    return values.length === 0 ? line : `const { ${values.join(", ")} } = ${take};`;
  });
}

/**
 * The sources as bundled: builtins by getter (above), and `require("better-sqlite3")` (through `createRequire`, so
 * relative to the chunk) loading the bundled copy.
 */
const bundledSources: Plugin = {
  name: "bundled-sources",
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, (args) => {
      const text = readFileSync(args.path, "utf8");
      const sqlite = /(?<!import)\("better-sqlite3"\)/g;
      const contents = builtinsByGetter(text).replace(sqlite, '("./better-sqlite3.cjs")');
      return contents === text ? undefined : { contents, loader: "ts" };
    });
  },
};

/** The package's binding lookup, bundled, still looks for the binary in the package's own folders. */
const packageDirname: Plugin = {
  name: "better-sqlite3-dirname",
  setup(b) {
    b.onLoad({ filter: /[\\/]better-sqlite3[\\/]lib[\\/]binding\.js$/ }, (args) => ({
      contents: `var __dirname = require("node:path").join(require("node:path").dirname(require.resolve("better-sqlite3/package.json")), "lib");\n${readFileSync(args.path, "utf8")}`,
      loader: "js",
    }));
  },
};

/**
 * Packages stay external but for small pure-JavaScript ones every index run loads: an ES module of a package costs a
 * resolution through its package.json and a file of its own (stemmer: the full-text stems of every write).
 */
const BUNDLED_PACKAGES = new Set(["stemmer"]);
const externalPackages: Plugin = {
  name: "external-packages",
  setup(b) {
    // A bare specifier (not ./, ../, / or a drive letter), as esbuild's `packages: "external"` takes them.
    const path = /^(?:[./\\]|[A-Za-z]:[\\/])/;
    b.onResolve({ filter: /.*/ }, (args) =>
      path.test(args.path) || BUNDLED_PACKAGES.has(args.path) ? undefined : { path: args.path, external: true },
    );
  },
};

const sqliteVersion = (
  JSON.parse(readFileSync(join(root, "node_modules", "better-sqlite3", "package.json"), "utf8")) as { version: string }
).version;

rmSync(out, { recursive: true, force: true });
await build({
  stdin: {
    contents: `module.exports = require("better-sqlite3/package.json").version === ${JSON.stringify(sqliteVersion)}
  ? require("./node_modules/better-sqlite3/lib/index.js")
  : require("better-sqlite3");`,
    resolveDir: root,
    sourcefile: "better-sqlite3.cjs",
    loader: "js",
  },
  outfile: join(out, "better-sqlite3.cjs"),
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node22",
  external: ["better-sqlite3", "better-sqlite3/*", "*.node"],
  plugins: [packageDirname],
  minifySyntax: !dev,
  minifyWhitespace: !dev,
  legalComments: "none",
  logLevel: "warning",
});
const result = await build({
  entryPoints: {
    cairn: join(root, "src", "cli", "main.ts"),
    "parse-worker": join(root, "src", "indexer", "parse-worker.ts"),
    "search-worker": join(root, "src", "tui", "search-worker.ts"),
    "pg-worker": join(root, "src", "store", "pg-worker.ts"),
  },
  outdir: out,
  bundle: true,
  splitting: true,
  chunkNames: "chunk-[hash]",
  format: "esm",
  platform: "node",
  target: "node22",
  minifySyntax: !dev,
  minifyWhitespace: !dev,
  // No renaming happens (identifiers are not minified), and every error class names itself: esbuild's `__name`
  // calls and the chunk of their helper cost a no-change index 2.6 ms (docs/performance.md, fifth round).
  keepNames: false,
  sourcemap: false,
  legalComments: "none",
  logLevel: "warning",
  tsconfig: join(root, "tsconfig.build.json"),
  plugins: [externalPackages, bundledSources],
  metafile: process.env["CAIRN_BUILD_META"] !== undefined,
});
if (result.metafile) writeFileSync(process.env["CAIRN_BUILD_META"]!, JSON.stringify(result.metafile));

// esbuild writes a chunk for a module that compiles to nothing (only types) when it is imported for its effects:
// an empty file every command loaded. Its imports are dropped, and the file with them.
const files = readdirSync(out).filter((f) => f.endsWith(".js"));
const empty = files.filter((f) => readFileSync(join(out, f), "utf8").trim() === "");
for (const name of empty) {
  const bare = new RegExp(`import\\s*"\\./${name.replaceAll(".", "\\.")}";?\\n?`, "g");
  let used = false;
  for (const f of files) {
    if (f === name) continue;
    const text = readFileSync(join(out, f), "utf8");
    const kept = text.replace(bare, "");
    if (kept !== text) writeFileSync(join(out, f), kept);
    if (kept.includes(`./${name}`)) used = true;
  }
  if (!used) rmSync(join(out, name));
}
