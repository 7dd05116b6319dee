/**
 * Builds the viewport page into dist/web: compiles web/*.ts (and the shared protocol and view reducer from
 * src/live) with web/tsconfig.json, then copies the static files. Run by `npm run build`.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "dist", "web");
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
execFileSync(process.execPath, [tsc, "-p", join(root, "web", "tsconfig.json")], { stdio: "inherit" });
for (const file of ["index.html", "style.css"]) copyFileSync(join(root, "web", file), join(out, file));
