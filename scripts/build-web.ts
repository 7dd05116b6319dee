/**
 * Builds the web app into dist/web with esbuild: web/main.tsx (Preact components, the live protocol's shared
 * reducer from src/live) becomes an ES module under dist/web/assets, with markdown-it and highlight.js split
 * into chunks loaded when first needed, one stylesheet, and the page shell and favicon beside them. Nothing is loaded from outside the
 * server at run time. Type checking is `npm run check` (tsc -p web/tsconfig.json); this only bundles.
 * Run by `npm run build`; `node scripts/build-web.ts --dev` keeps the output readable. A clone's `cairn serve` runs it
 * with `--out <a folder of its own>` when the sources changed since the page was built (scripts/clone-bundle.js).
 */
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { OUTPUTS, STAMP, sourcesStamp } from "./clone-bundle.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outAt = process.argv.indexOf("--out");
const out = outAt > 0 && process.argv[outAt + 1] ? process.argv[outAt + 1]! : join(root, "dist", "web");
const dev = process.argv.includes("--dev");
const stamp = sourcesStamp(root, OUTPUTS.web);

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, "assets"), { recursive: true });
await build({
  entryPoints: { app: join(root, "web", "main.tsx"), style: join(root, "web", "style.css") },
  outdir: join(out, "assets"),
  bundle: true,
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  format: "esm",
  platform: "browser",
  target: ["chrome110", "firefox115", "safari16"],
  jsx: "automatic",
  jsxImportSource: "preact",
  minify: !dev,
  sourcemap: false,
  legalComments: "linked",
  logLevel: "warning",
  tsconfig: join(root, "web", "tsconfig.json"),
});
for (const file of ["index.html", "favicon.svg"]) copyFileSync(join(root, "web", file), join(out, file));
writeFileSync(join(out, STAMP), stamp);
