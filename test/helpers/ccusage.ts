/**
 * ccusage (the npm registry's usage reporter for Claude Code and Codex files), installed into the clients' cache
 * like an agent's CLI: the newest version whose native program runs here (a release whose binary the registry
 * lacks for this platform installs but cannot start).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { cacheDir, compareVersions, installClient, publishedVersions } from "../../scripts/clients/install.ts";

function runs(bin: string): boolean {
  return spawnSync(bin, ["--version"], { encoding: "utf8", timeout: 30_000 }).status === 0;
}

export function ccusageBin(): { bin: string; version: string } {
  const dir = join(cacheDir(), "ccusage");
  const cached = existsSync(dir)
    ? readdirSync(dir)
        .filter((v) => existsSync(join(dir, v, "installed")))
        .sort(compareVersions)
        .reverse()
    : [];
  for (const v of cached) {
    const bin = join(dir, v, "node_modules", ".bin", "ccusage");
    if (runs(bin)) return { bin, version: v };
  }
  for (const v of publishedVersions("ccusage").slice(0, 6)) {
    const installed = installClient("ccusage", "ccusage", v);
    const bin = join(installed.binDir, "ccusage");
    if (runs(bin)) return { bin, version: v };
  }
  throw new Error("no ccusage release from the npm registry runs here");
}
