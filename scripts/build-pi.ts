/**
 * Writes dist/cairn/index.js, the file the package's `pi` manifest names, from src/pi/index.ts, after `tsc` has
 * written dist/.
 *
 * pi loads extensions through jiti, which maps `@earendil-works/pi-*` and `typebox` to the running pi's own copies,
 * but only in files it transpiles: an ES module inside a `"type": "module"` package is imported natively, so its
 * pi imports resolve to whatever copy sits in cairn's node_modules (a clone's dev copy: a second pi, of another
 * version, loaded at every start, 0.6–0.8 s). The entry therefore sits in a folder whose package.json names no
 * type, which jiti transpiles (Node itself still detects it as an ES module). Transpiling is slow (about a second for
 * the whole extension, each time the temp folder loses jiti's cache), so the entry is small: it takes what the
 * extension uses from pi and imports the rest natively (a dynamic import of a module in cairn's `"type": "module"`
 * package): dist/pi-native/default-extension.js, one file, so that pi's every start reads one file rather than
 * forty. The index-backed sources stay out of it, imported from dist/pi/index-sources.js on first use.
 *
 * Run by `npm run build`.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "rolldown";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "dist", "cairn");
const REST = "../pi-native/default-extension.js";
const SOURCES = "../pi/index-sources.js";

/** Keeps `from` (a relative import in src/pi) out of the bundle, imported as `to` at run time. */
const stayOut = (from: string, to: string): Plugin => ({
  name: `keep-out-${from}`,
  resolveId: (id) => (id === from ? { id: to, external: true } : null),
});
/** Packages (pi's, typebox, Node's) are never bundled. */
const bare = (id: string) => !/^(?:[./\\]|[A-Za-z]:[\\/]|\0)/.test(id);

/** One file from `input`, with `keep.from` left out and imported as `keep.to` at run time. */
const bundle = (input: string, file: string, keep: { from: string; to: string }) =>
  build({
    input: join(root, "src", "pi", input),
    platform: "node",
    tsconfig: join(root, "tsconfig.build.json"),
    external: (id) => id === keep.to || bare(id),
    plugins: [stayOut(keep.from, keep.to)],
    logLevel: "warn",
    output: { file, format: "es", codeSplitting: false, comments: false },
  });
await bundle("index.ts", join(out, "index.js"), { from: "./default-extension.ts", to: REST });
await bundle("default-extension.ts", join(root, "dist", "pi-native", "default-extension.js"), {
  from: "./index-sources.ts",
  to: SOURCES,
});
mkdirSync(out, { recursive: true });
writeFileSync(
  join(out, "package.json"),
  `${JSON.stringify({ private: true, description: "cairn's pi extension entry; no module type, so pi's loader transpiles it and its pi imports are pi's own" }, null, 2)}\n`,
);

// The entry must stay small: anything it bundled would be transpiled at pi's first start. The rest must not load pi:
// natively, that would be a second pi.
const entry = readFileSync(join(out, "index.js"), "utf8");
const relative = [...entry.matchAll(/from\s*["'](\.[^"']*)["']|import\(\s*["'](\.[^"']*)["']\s*\)/g)]
  .map((m) => m[1] ?? m[2])
  .filter((id) => id !== REST);
if (relative.length > 0 || entry.length > 4000) {
  throw new Error(
    `dist/cairn/index.js must hold only the entry (imports ${relative.join(", ")}, ${entry.length} chars)`,
  );
}
const rest = readFileSync(join(root, "dist", "pi-native", "default-extension.js"), "utf8");
const hostImports = rest.match(/(?:from|import)\s*\(?\s*["'](?:@earendil-works\/[^"']+|typebox)["']/g);
if (hostImports)
  throw new Error(`dist/pi-native/default-extension.js imports pi at run time: ${hostImports.join(", ")}`);
