/**
 * Installs an agent's CLI from the npm registry into a cache folder (never into the project): the newest version
 * that installs, walking back over versions whose dependencies the registry cannot satisfy.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export function cacheDir(): string {
  return process.env["CAIRN_CLIENTS_CACHE"] ?? join(homedir(), ".cache", "cairn-clients");
}

function npm(args: string[], cwd?: string): { ok: boolean; out: string } {
  const r = spawnSync("npm", args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  return { ok: r.status === 0, out: `${r.stdout ?? ""}${r.stderr ?? ""}` };
}

/** Stable versions, newest first. */
export function publishedVersions(pkg: string): string[] {
  const raw = execFileSync("npm", ["view", pkg, "versions", "--json"], { encoding: "utf8" });
  const list = JSON.parse(raw) as string[] | string;
  const all = (Array.isArray(list) ? list : [list]).filter((v) => /^\d+\.\d+\.\d+$/.test(v));
  return all.sort(compareVersions).reverse();
}

export function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

export interface Installed {
  version: string;
  /** Folder holding `node_modules/.bin`. */
  prefix: string;
}

/** The requested version, or the newest one that installs (trying at most `tries` versions). */
export function installClient(agent: string, pkg: string, version?: string, tries = 6): Installed {
  const candidates = version ? [version] : publishedVersions(pkg).slice(0, tries);
  const failures: string[] = [];
  for (const v of candidates) {
    const prefix = join(cacheDir(), agent, v);
    if (existsSync(join(prefix, "node_modules", ".bin")) && existsSync(join(prefix, "installed")))
      return { version: v, prefix };
    rmSync(prefix, { recursive: true, force: true });
    mkdirSync(prefix, { recursive: true });
    writeFileSync(join(prefix, "package.json"), '{ "private": true }\n');
    process.stderr.write(`installing ${pkg}@${v} into ${prefix}\n`);
    const r = npm(["install", "--no-audit", "--no-fund", "--loglevel=error", `${pkg}@${v}`], prefix);
    if (r.ok) {
      writeFileSync(join(prefix, "installed"), `${pkg}@${v}\n`);
      return { version: v, prefix };
    }
    failures.push(`${v}: ${r.out.split("\n").find((l) => l.includes("error")) ?? "failed"}`);
    rmSync(prefix, { recursive: true, force: true });
  }
  throw new Error(`could not install ${pkg}:\n  ${failures.join("\n  ")}`);
}
