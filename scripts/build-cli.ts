/**
 * Bundles the built command into dist/bundle with Rolldown, after `tsc` has written dist/: one ES module per entry
 * (the CLI, the parse worker, the terminal UI's search worker, the PostgreSQL worker, the embedder's) and shared chunks beside them,
 * each module a command loads on demand (`await import()`) kept out of the entry so it stays lazy. An installed
 * `cairn` runs dist/bundle/cairn.js (bin/cairn.js); a search loads a handful of files instead of eighty
 * (docs/performance.md, "Cold starts, fourth round"). The library export and the pi extension stay on dist/.
 *
 * Layout the sources rely on: every bundle file sits directly in dist/bundle, two folders below the package root,
 * as dist/<area>/<module>.js does, so `new URL("../../data/…", import.meta.url)` and the walk up to package.json
 * find the same files; the workers are entries named as their sources (`./parse-worker.js` beside any chunk).
 * Dependencies stay external: native modules find their binaries relative to their own package, and the SDKs are
 * loaded only by the commands that use them. One exception: better-sqlite3's JavaScript (fifteen CommonJS files and a
 * search for its binary) is bundled into dist/bundle/better-sqlite3.cjs, which loads the binary from the installed
 * package, or the package itself when its version is not the one bundled (docs/performance.md, sixth round); esbuild
 * writes that CommonJS file.
 *
 * Run by `npm run build`; `node scripts/build-cli.ts --dev` keeps the output readable. A clone's `bin/cairn.js`
 * runs it with `--out <a folder of its own>` when the sources changed since the last build (scripts/clone-bundle.js),
 * and moves the files into dist/bundle; the stamp it writes (`.sources`) is how that finds the bundle fresh.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";
import { type Plugin as RolldownPlugin, build as rolldown } from "rolldown";
import { OUTPUTS, STAMP, sourcesStamp } from "./clone-bundle.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outAt = process.argv.indexOf("--out");
const out = outAt > 0 && process.argv[outAt + 1] ? process.argv[outAt + 1]! : join(root, "dist", "bundle");
const dev = process.argv.includes("--dev");
// Taken before the bundlers read the sources, so that an edit made during the build makes the next run rebuild.
const stamp = sourcesStamp(root, OUTPUTS.bundle);

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
const bundledSources: RolldownPlugin = {
  name: "bundled-sources",
  load(id) {
    if (!/[\\/]src[\\/].*\.ts$/.test(id)) return null;
    const text = readFileSync(id, "utf8");
    const sqlite = /(?<!import)\("better-sqlite3"\)/g;
    const code = builtinsByGetter(text).replace(sqlite, '("./better-sqlite3.cjs")');
    return code === text ? null : { code, moduleType: "ts" };
  },
};

/**
 * better-sqlite3.cjs finds the installed package's folder and version where `require` would find them first (the
 * package's own node_modules, then the folder it is installed in) by reading a path or two: `require.resolve` of its
 * package.json took 1.4 ms of every command that opened the index, and the binding lookup resolved it again.
 * Anywhere else, `require.resolve`. A module of the CommonJS bundle of its own (`cairn:better-sqlite3-package`),
 * so the version check and the binding lookup share one answer.
 */
const SQLITE_PACKAGE = `var path = require("node:path"), fs = require("node:fs");
var root = path.join(__dirname, "..", "..");
var places = [path.join(root, "node_modules", "better-sqlite3")];
if (path.basename(path.dirname(root)) === "node_modules") places.push(path.join(path.dirname(root), "better-sqlite3"));
module.exports = (function () {
  for (var dir of places) {
    try {
      return { dir: dir, version: JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")).version };
    } catch {}
  }
  var json = require.resolve("better-sqlite3/package.json");
  return { dir: path.dirname(json), version: require(json).version };
})();`;

/** The package's binding lookup, bundled, still looks for the binary in the package's own folders. */
const packageDirname: Plugin = {
  name: "better-sqlite3-dirname",
  setup(b) {
    b.onResolve({ filter: /^cairn:better-sqlite3-package$/ }, (args) => ({ path: args.path, namespace: "cairn" }));
    b.onLoad({ filter: /.*/, namespace: "cairn" }, () => ({ contents: SQLITE_PACKAGE, loader: "js" }));
    b.onLoad({ filter: /[\\/]better-sqlite3[\\/]lib[\\/]binding\.js$/ }, (args) => ({
      contents: `var __dirname = require("node:path").join(require("cairn:better-sqlite3-package").dir, "lib");\n${readFileSync(args.path, "utf8")}`,
      loader: "js",
    }));
  },
};

/**
 * Packages stay external but for small pure-JavaScript ones every index run loads: an ES module of a package costs a
 * resolution through its package.json and a file of its own (stemmer: the full-text stems of every write).
 */
const BUNDLED_PACKAGES = new Set(["stemmer"]);
/** A bare specifier (not ./, ../, / or a drive letter, nor a bundler's own virtual module). */
const external = (id: string): boolean => !/^(?:[./\\]|[A-Za-z]:[\\/]|\0)/.test(id) && !BUNDLED_PACKAGES.has(id);

/**
 * Chunks by what a command loads together. Each bundle file costs a new process its resolution, read and link (the
 * Node loader's resolve alone is about 0.2 ms an import), and automatic chunking makes one per set of dynamic
 * imports that share a module: a no-change index loaded 26 files, most under 2 KB (docs/performance.md, seventh
 * round). Seven groups, by priority: what the CLI's entry itself imports and every command uses (errors, io, flags,
 * the version, the text helpers most commands share), so that `--help` loads one small chunk beside the entry (not
 * the agents' folders: they come from the readers' registry, whose manifests import every reader, 240 KB that
 * `--help` never used, 45 ms of CPU instead of 31, docs/performance.md "Issue 41"); what a run that finds
 * nothing to do shares with every command that opens the index (`app/index-app.ts`, which `createCairn` imports, with
 * `unchangedIndex`'s scan, lock, stamps' reader, the schema's migrations and the static embedder's id), so that such
 * a run loads neither the store nor the indexer and a search loads it in place of the index group it loaded before;
 * what the parse worker shares with the index's writes (the batch preparation, its stems and secrets), so that the
 * worker does not load the store; the index command itself (its progress lines); the index opened (the SQLite
 * store, and the CLI's write open), shared by every command that reads or writes it; and the rest of an index
 * run's own path (vectors, embedders, the indexer's lazy start); last, the normalizer's parts that `resume` uses too
 * (commands, decisions, pasted output, error signatures), three automatic chunks that both loaded.
 * A module no group names is chunked automatically. The groups only merge files, they never decide what loads, but
 * a group's chunk loads whole for any of its modules, and a group also takes what its modules import (Rolldown's
 * default).
 */
const S = "[\\\\/]";
const CHUNK_GROUPS = [
  {
    name: "cli",
    priority: 6,
    test: new RegExp(
      `${S}src${S}(?:cli${S}(?:io|exit|args)|app${S}version|store${S}pg${S}url|common${S}(?:errors|plural)|topology${S}text)\\.ts$`,
    ),
  },
  {
    name: "shared",
    priority: 5,
    test: new RegExp(
      `${S}src${S}(?:app${S}index-app|store${S}sqlite${S}(?:schema|stamps)|topology${S}version|` +
        `indexer${S}(?:db-path|plan|scan|lock)|embedders${S}(?:static|word-vectors|types))\\.ts$`,
    ),
  },
  {
    name: "prepare",
    priority: 4,
    test: new RegExp(
      `${S}src${S}(?:store${S}shared${S}(?:prepare-batch|stems|fts-text)|secrets${S}(?:detect|entropy|positions|rules)|` +
        `topology${S}types)\\.ts$|${S}node_modules${S}stemmer${S}`,
    ),
  },
  {
    name: "unchanged",
    priority: 3,
    test: new RegExp(`${S}src${S}cli${S}(?:commands${S}index-command|index-run|progress|vectors|roots)\\.ts$`),
  },
  {
    name: "store",
    priority: 2,
    test: new RegExp(
      `${S}src${S}(?:store${S}(?:(?:sqlite|shared)${S}[\\w-]+|(?!resolve)[\\w-]+)|app${S}(?:open|core|machine)|cli${S}index-app|` +
        `secrets${S}redact)\\.ts$`,
    ),
  },
  {
    name: "index",
    priority: 1,
    test: new RegExp(
      `${S}src${S}(?:app${S}indexing|indexer${S}index-lazily|` +
        `embedders${S}(?!shipped-ranks|embed-worker)[\\w-]+|search${S}(?:vectors|bundles))\\.ts$`,
    ),
  },
  {
    name: "topology",
    priority: 0,
    test: new RegExp(
      `${S}src${S}topology${S}(?:decisions|decision-(?:text|agent|user)|pasted|tool-call-input|command|shell|` +
        `test-script|error-signature)\\.ts$`,
    ),
  },
];

const sqliteVersion = (
  JSON.parse(readFileSync(join(root, "node_modules", "better-sqlite3", "package.json"), "utf8")) as { version: string }
).version;

rmSync(out, { recursive: true, force: true });
await build({
  stdin: {
    contents: `module.exports = require("cairn:better-sqlite3-package").version === ${JSON.stringify(sqliteVersion)}
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
await rolldown({
  input: {
    cli: join(root, "src", "cli", "main.ts"),
    "parse-worker": join(root, "src", "indexer", "parse-worker.ts"),
    "search-worker": join(root, "src", "tui", "search-worker.ts"),
    "pg-worker": join(root, "src", "store", "pg", "pg-worker.ts"),
    "embed-worker": join(root, "src", "embedders", "embed-worker.ts"),
  },
  platform: "node",
  tsconfig: join(root, "tsconfig.build.json"),
  external,
  plugins: [bundledSources],
  logLevel: "warn",
  output: {
    dir: out,
    format: "es",
    entryFileNames: "[name].js",
    chunkFileNames: "chunk-[hash].js",
    // Identifiers are not renamed (every error class names itself, and a stack reads as the source).
    minify: dev ? false : { compress: true, mangle: false, codegen: { removeWhitespace: true } },
    comments: false,
    codeSplitting: { groups: CHUNK_GROUPS },
  },
});

// A bundler may write a chunk for a module that compiles to nothing (only types) when it is imported for its
// effects (esbuild did): an empty file every command loaded. Its imports are dropped, and the file with them.
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

// No chunk may import an entry: the CLI's runs itself when it is the process's script, and a worker shares the
// process's argv, so a chunk that imported it would start a second CLI inside the parse worker; a worker's entry
// answers its port's messages, so a chunk that imported one (the embed worker once sat in the index group) had the
// terminal UI's search thread answer every search with the embed worker's error. Shared code belongs in chunks.
const ENTRIES = ["cairn", "cli", "parse-worker", "search-worker", "pg-worker", "embed-worker"];
for (const f of readdirSync(out).filter((n) => n.endsWith(".js")))
  for (const entry of ENTRIES) {
    if (f === `${entry}.js`) continue;
    const imported = new RegExp(`\\bfrom\\s*["']\\./${entry}\\.js["']|\\bimport\\s*\\(?\\s*["']\\./${entry}\\.js["']`);
    if (imported.test(readFileSync(join(out, f), "utf8")))
      throw new Error(`dist/bundle/${f} imports the entry ${entry}.js: move what it shares into a chunk group`);
  }

/**
 * dist/bundle/cairn.js, the command's entry, is a launcher: it turns on Node's compile cache, then loads the CLI
 * (cli.js). Compiling the CLI's chunks was a quarter of a session-start hook's run, paid again by every process
 * (docs/performance.md, "Issue 39"); cached, a later start reads the compiled code. The cache only holds what loads
 * after it is turned on, hence a file before the rest. `NODE_DISABLE_COMPILE_CACHE=1` turns it off.
 */
writeFileSync(
  join(out, "cairn.js"),
  `import module from "node:module";
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
try { module.enableCompileCache?.(); } catch {}
const cli = await import("./cli.js");
export const run = cli.run;
const main = () => { try { return realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url)); } catch { return false; } };
if (main()) await cli.run();
`,
);
writeFileSync(join(out, STAMP), stamp);
