/**
 * Installs an agent's CLI from the npm registry (or PyPI, into a virtual environment of its own) into a cache folder
 * (never into the project): the newest version that installs, walking back over versions whose dependencies the
 * registry cannot satisfy.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
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
  /** Folder holding `node_modules/.bin` (npm) or the virtual environment (PyPI). */
  prefix: string;
  /** Folder holding the CLI's commands. */
  binDir: string;
}

export interface InstallOptions {
  /** Where the package is published (default npm). */
  registry?: "npm" | "pypi";
  /** Versions worth trying (an archive release that only prints a notice is not); default all. */
  versions?(version: string): boolean;
  tries?: number;
}

/** The requested version, or the newest one that installs (trying at most `tries` versions). */
export function installClient(agent: string, pkg: string, version?: string, opts: InstallOptions = {}): Installed {
  if (opts.registry === "pypi") return installPython(agent, pkg, version, opts);
  const candidates = version ? [version] : publishedVersions(pkg).filter(opts.versions ?? (() => true));
  const failures: string[] = [];
  for (const v of candidates.slice(0, opts.tries ?? 6)) {
    const prefix = join(cacheDir(), agent, v);
    const binDir = join(prefix, "node_modules", ".bin");
    if (existsSync(binDir) && existsSync(join(prefix, "installed"))) return { version: v, prefix, binDir };
    rmSync(prefix, { recursive: true, force: true });
    mkdirSync(prefix, { recursive: true });
    writeFileSync(join(prefix, "package.json"), '{ "private": true }\n');
    process.stderr.write(`installing ${pkg}@${v} into ${prefix}\n`);
    const r = npm(["install", "--no-audit", "--no-fund", "--loglevel=error", `${pkg}@${v}`], prefix);
    if (r.ok) {
      writeFileSync(join(prefix, "installed"), `${pkg}@${v}\n`);
      return { version: v, prefix, binDir };
    }
    failures.push(`${v}: ${r.out.split("\n").find((l) => l.includes("error")) ?? "failed"}`);
    rmSync(prefix, { recursive: true, force: true });
  }
  throw new Error(`could not install ${pkg}:\n  ${failures.join("\n  ")}`);
}

/**
 * A PyPI package in a virtual environment per version (`<cache>/<agent>/<version>`), made by the newest Python 3
 * on the machine (`CAIRN_CLIENTS_PYTHON` names one): its pip lists and installs only the versions that Python
 * satisfies.
 */
function installPython(agent: string, pkg: string, version: string | undefined, opts: InstallOptions): Installed {
  const python = newestPython();
  const index = join(cacheDir(), agent, ".index");
  if (!existsSync(join(index, "bin", "pip"))) venv(python, index);
  const candidates = version
    ? [version]
    : pypiVersions(join(index, "bin", "pip"), pkg).filter(opts.versions ?? (() => true));
  const failures: string[] = [];
  for (const v of candidates.slice(0, opts.tries ?? 6)) {
    const prefix = join(cacheDir(), agent, v);
    const binDir = join(prefix, "bin");
    if (existsSync(join(prefix, "installed"))) return { version: v, prefix, binDir };
    rmSync(prefix, { recursive: true, force: true });
    venv(python, prefix);
    process.stderr.write(`installing ${pkg}==${v} (PyPI) into ${prefix}\n`);
    const r = spawnSync(join(binDir, "pip"), ["install", "--quiet", `${pkg}==${v}`], { encoding: "utf8" });
    if (r.status === 0) {
      writeFileSync(join(prefix, "installed"), `${pkg}==${v}\n`);
      return { version: v, prefix, binDir };
    }
    failures.push(`${v}: ${`${r.stderr}`.split("\n").find((l) => l.includes("ERROR")) ?? "failed"}`);
    rmSync(prefix, { recursive: true, force: true });
  }
  throw new Error(`could not install ${pkg} from PyPI:\n  ${failures.join("\n  ")}`);
}

function venv(python: string, dir: string): void {
  const r = spawnSync(python, ["-m", "venv", dir], { encoding: "utf8" });
  if (r.status !== 0)
    throw new Error(`${python} -m venv failed (on Debian: apt-get install python3-venv):\n${r.stderr}`);
}

/** Versions on PyPI this environment's Python can install, newest first. */
function pypiVersions(pip: string, pkg: string): string[] {
  const r = spawnSync(pip, ["index", "versions", pkg], { encoding: "utf8" });
  const line = /^Available versions: (.*)$/m.exec(r.stdout ?? "")?.[1];
  if (!line) throw new Error(`pip index versions ${pkg} found none:\n${r.stderr}`);
  return line
    .split(", ")
    .filter((v) => /^\d+(\.\d+)+$/.test(v))
    .sort(compareVersions)
    .reverse();
}

/**
 * The newest Python 3 that can make a virtual environment with pip in it (Debian's lacks `ensurepip` until
 * python3-venv is installed): on PATH as `python3.N`, or a pyenv version (whose shims run only the one selected).
 */
function newestPython(): string {
  const own = process.env["CAIRN_CLIENTS_PYTHON"];
  if (own) return own;
  const pyenv = join(homedir(), ".pyenv", "versions");
  const found = [
    ...Array.from({ length: 10 }, (_, i) => `python3.${20 - i}`),
    ...(existsSync(pyenv) ? readdirSync(pyenv).map((v) => join(pyenv, v, "bin", "python3")) : []),
    "python3",
  ].flatMap((cmd) => {
    const r = spawnSync(cmd, ["-c", "import sys, venv, ensurepip; print('%d.%d.%d' % sys.version_info[:3])"], {
      encoding: "utf8",
    });
    const v = r.status === 0 ? r.stdout.trim() : "";
    return v.startsWith("3.") ? [{ cmd, v }] : [];
  });
  const best = found.sort((a, b) => compareVersions(b.v, a.v))[0];
  if (!best)
    throw new Error(
      "no Python 3 with venv and ensurepip to install a PyPI package (apt-get install python3-venv, or set CAIRN_CLIENTS_PYTHON)",
    );
  return best.cmd;
}
