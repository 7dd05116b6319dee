/**
 * Bundles cairn's pi extension into dist/cairn/index.js, the file the package's `pi` manifest names, after
 * `tsc` has written dist/.
 *
 * pi loads extensions through jiti, which maps `@earendil-works/pi-*` and `typebox` to the running pi's own copies,
 * but only in files it transpiles: an ES module inside a `"type": "module"` package is imported natively, so its
 * pi imports resolve to whatever copy sits in cairn's node_modules (a clone's dev copy: a second pi, of another
 * version, loaded at every start, 0.6–0.8 s). The bundle therefore sits in a folder whose package.json names no
 * type, which jiti transpiles (Node itself still detects it as an ES module), and it holds only what pi loads at
 * start. The index-backed sources stay out of it: their dynamic import points at dist/pi/index-sources.js, a native
 * module that loads SQLite and the resume engine on first use.
 *
 * Run by `npm run build`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "rolldown";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "dist", "cairn");
const SOURCES = "../pi/index-sources.js";

await build({
  input: join(root, "src", "pi", "index.ts"),
  platform: "node",
  tsconfig: join(root, "tsconfig.build.json"),
  external: (id) => id === SOURCES || !/^(?:[./\\]|[A-Za-z]:[\\/]|\0)/.test(id),
  plugins: [
    {
      name: "index-sources-stay-native",
      resolveId(id) {
        return id === "./index-sources.ts" ? { id: SOURCES, external: true } : null;
      },
    },
  ],
  logLevel: "warn",
  output: { file: join(out, "index.js"), format: "es", codeSplitting: false, comments: false },
});
mkdirSync(out, { recursive: true });
writeFileSync(
  join(out, "package.json"),
  `${JSON.stringify({ private: true, description: "cairn's pi extension, bundled; no module type, so pi's loader transpiles it and its pi imports are pi's own" }, null, 2)}\n`,
);
