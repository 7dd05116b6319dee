#!/usr/bin/env node
// The `cairn` command. Plain JavaScript that any Node.js parses, so that an old Node is told what to install
// before anything that needs a newer one is loaded (a native module built for Node 22 crashes Node 20).
// In a source checkout it runs the TypeScript sources (Node strips the types: nothing to build after
// `npm ci`); an installed package runs dist/bundle/cairn.js, the command bundled when the package was packed
// (scripts/build-cli.ts: a few files to load instead of eighty), because Node does not strip types under node_modules.
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
const fromSource = existsSync(join(root, "src", "cli", "main.ts")) && !root.split(sep).includes("node_modules");
const cli = await import(fromSource ? "../src/cli/main.ts" : "../dist/bundle/cairn.js");
await cli.run();

function older(have, want) {
  const a = have.split(".").map(Number);
  const b = want.split(".").map(Number);
  for (let i = 0; i < 3; i++) if ((a[i] || 0) !== (b[i] || 0)) return (a[i] || 0) < (b[i] || 0);
  return false;
}
