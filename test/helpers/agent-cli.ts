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

/**
 * Claude Code's environment against a fake Anthropic API at `url`: offline, no telemetry or updates, and allowed to
 * skip permissions as root (IS_SANDBOX).
 */
export function claudeEnv(url: string): Record<string, string> {
  return {
    ANTHROPIC_BASE_URL: url,
    ANTHROPIC_API_KEY: "dummy",
    DISABLE_TELEMETRY: "1",
    DISABLE_AUTOUPDATER: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    IS_SANDBOX: "1",
  };
}
