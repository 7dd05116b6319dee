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
 * loaded only by the commands that use them.
 *
 * Run by `npm run build`; `node scripts/build-cli.ts --dev` keeps the output readable.
 */
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "dist", "bundle");
const dev = process.argv.includes("--dev");

rmSync(out, { recursive: true, force: true });
await build({
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
  packages: "external",
  minifySyntax: !dev,
  minifyWhitespace: !dev,
  // No renaming happens (identifiers are not minified), and every error class names itself: esbuild's `__name`
  // calls and the chunk of their helper cost a no-change index 2.6 ms (docs/performance.md, fifth round).
  keepNames: false,
  sourcemap: false,
  legalComments: "none",
  logLevel: "warning",
  tsconfig: join(root, "tsconfig.build.json"),
});
