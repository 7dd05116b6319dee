/**
 * Installs an agent's CLI from the npm registry into a cache folder (never into the project): the newest version
 * that installs, walking back over versions whose dependencies the registry cannot satisfy. A CLI whose `engines`
 * exclude the harness's Node is installed and run on a Node from the registry that they admit.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export function cacheDir(): string {
  return process.env["CAIRN_CLIENTS_CACHE"] ?? join(homedir(), ".cache", "cairn-clients");
}

function npm(args: string[], cwd?: string, nodeBin?: string): { ok: boolean; out: string } {
  // npm and the package's install scripts run on the Node first on PATH.
  const env = nodeBin ? { ...process.env, PATH: `${nodeBin}:${process.env["PATH"] ?? ""}` } : process.env;
  const r = spawnSync("npm", args, { cwd, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
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
  /** The bin folder of the Node the CLI runs on, when its `engines` exclude the harness's own. */
  nodeBin?: string;
}

/**
 * A Node from the registry (`node-<platform>-<arch>`, the newest its `engines` admit) for a CLI whose `engines`
 * exclude the Node the harness runs on (OpenClaw from 2026.9.3 refuses to install on Node 22); undefined when the
 * harness's own will do.
 */
function nodeFor(pkg: string, version: string): string | undefined {
  const engines = npm(["view", `${pkg}@${version}`, "engines.node"]).out.trim();
  if (engines === "") return undefined;
  const platform = `node-${process.platform}-${process.arch}`;
  const listed = npm(["view", `${platform}@${engines}`, "version", "--json"]);
  if (!listed.ok) return undefined;
  const parsed = JSON.parse(listed.out) as string | string[];
  const versions = (Array.isArray(parsed) ? parsed : [parsed]).sort(compareVersions);
  const newest = versions.at(-1);
  if (newest === undefined || versions.includes(process.versions.node)) return undefined;
  const prefix = join(cacheDir(), "node", newest);
  const bin = join(prefix, "node_modules", platform, "bin");
  if (existsSync(join(bin, "node"))) return bin;
  mkdirSync(prefix, { recursive: true });
  writeFileSync(join(prefix, "package.json"), '{ "private": true }\n');
  process.stderr.write(`installing Node ${newest} for ${pkg}@${version} (engines: ${engines})\n`);
  if (!npm(["install", "--no-audit", "--no-fund", "--loglevel=error", `${platform}@${newest}`], prefix).ok)
    throw new Error(`could not install ${platform}@${newest}`);
  return bin;
}

/** The requested version, or the newest one that installs (trying at most `tries` versions). */
export function installClient(agent: string, pkg: string, version?: string, tries = 6): Installed {
  const candidates = version ? [version] : publishedVersions(pkg).slice(0, tries);
  const failures: string[] = [];
  for (const v of candidates) {
    const prefix = join(cacheDir(), agent, v);
    const nodeFile = join(prefix, "node");
    if (existsSync(join(prefix, "node_modules", ".bin")) && existsSync(join(prefix, "installed")))
      return {
        version: v,
        prefix,
        ...(existsSync(nodeFile) ? { nodeBin: readFileSync(nodeFile, "utf8").trim() } : {}),
      };
    rmSync(prefix, { recursive: true, force: true });
    mkdirSync(prefix, { recursive: true });
    writeFileSync(join(prefix, "package.json"), '{ "private": true }\n');
    const nodeBin = nodeFor(pkg, v);
    if (nodeBin) writeFileSync(nodeFile, `${nodeBin}\n`);
    process.stderr.write(`installing ${pkg}@${v} into ${prefix}\n`);
    const r = npm(["install", "--no-audit", "--no-fund", "--loglevel=error", `${pkg}@${v}`], prefix, nodeBin);
    if (r.ok) {
      writeFileSync(join(prefix, "installed"), `${pkg}@${v}\n`);
      return { version: v, prefix, ...(nodeBin ? { nodeBin } : {}) };
    }
    failures.push(`${v}: ${r.out.split("\n").find((l) => l.includes("error")) ?? "failed"}`);
    rmSync(prefix, { recursive: true, force: true });
  }
  throw new Error(`could not install ${pkg}:\n  ${failures.join("\n  ")}`);
}
