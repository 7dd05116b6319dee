#!/usr/bin/env node
// The `cairn` command. Plain JavaScript that any Node.js parses, so that an old Node is told what to install
// before anything that needs a newer one is loaded (a native module built for Node 22 crashes Node 20).
// An installed package runs dist/bundle/cairn.js, the command bundled when the package was packed
// (scripts/build-cli.ts: a few files to load instead of eighty; Node does not strip types under node_modules).
// A clone runs the same bundle, built by its first run after `npm ci` and again whenever the sources changed since
// (scripts/clone-bundle.js: bundlers only, no compiler), or its TypeScript sources when that build fails or
// CAIRN_FROM_SOURCE=1 asks for them (Node strips the types; slower to start, nothing to build).
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const wanted = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).engines.node.replace(/^>=\s*/, "");
if (older(process.versions.node, wanted)) {
  process.stderr.write(
    `cairn needs Node.js ${wanted} or newer; this is Node.js ${process.versions.node} (${process.execPath}).\n` +
      "Install Node.js 22 (https://nodejs.org, or `nvm install 22`, `fnm install 22`, `volta install node@22`) " +
      "and run cairn with it.\n",
  );
  process.exit(1);
}
const clone = existsSync(join(root, "src", "cli", "main.ts")) && !root.split(sep).includes("node_modules");
const asked = process.env.CAIRN_FROM_SOURCE;
const sourcesAsked = asked !== undefined && asked !== "" && asked !== "0";
const fromSource =
  clone && (sourcesAsked || !(await import("../scripts/clone-bundle.js")).cloneReady(root, process.argv.slice(2)));
const cli = await import(fromSource ? "../src/cli/main.ts" : "../dist/bundle/cairn.js");
await cli.run();

function older(have, want) {
  const a = have.split(".").map(Number);
  const b = want.split(".").map(Number);
  for (let i = 0; i < 3; i++) if ((a[i] || 0) !== (b[i] || 0)) return (a[i] || 0) < (b[i] || 0);
  return false;
}
