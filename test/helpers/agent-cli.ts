/**
 * An agent's real CLI for a test: the newest version already in the clients' cache (scripts/clients/install.ts),
 * else the newest the npm registry has, installed there now.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { cacheDir, compareVersions, installClient } from "../../scripts/clients/install.ts";

export function agentCli(agent: string, pkg: string, bin: string): string {
  const dir = join(cacheDir(), agent);
  const cached = existsSync(dir)
    ? readdirSync(dir)
        .filter((v) => existsSync(join(dir, v, "installed")))
        .sort(compareVersions)
        .at(-1)
    : undefined;
  const installed = installClient(agent, pkg, cached);
  return join(installed.binDir, bin);
}
