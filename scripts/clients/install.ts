/**
 * Installs an agent's CLI from the npm registry (or PyPI, into a virtual environment of its own) into a cache folder
 * (never into the project): the newest version that installs, walking back over versions whose dependencies the
 * registry cannot satisfy. A CLI whose `engines` exclude the harness's Node is installed and run on a Node from the
 * registry that they admit. A CLI written in Go (Crush) is built from its module instead (`installGoClient`).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export function cacheDir(): string {
  return process.env["CAIRN_CLIENTS_CACHE"] ?? join(homedir(), ".cache", "cairn-clients");
}

function npm(args: string[], cwd?: string, nodeBin?: string): { ok: boolean; out: string } {
  // npm and the package's install scripts run on the Node first on PATH. Under `npm test` npm hands its settings
  // down as npm_config_* variables, this repository's `ignore-scripts` among them; an agent's CLI needs its own
  // install script (Claude Code's puts its native binary in place), so that one is not passed on.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_config_ignore_scripts$/i.test(k)));
  if (nodeBin) env["PATH"] = `${nodeBin}:${process.env["PATH"] ?? ""}`;
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
  /** Folder holding `node_modules/.bin` (npm) or the virtual environment (PyPI). */
  prefix: string;
  /** Folder holding the CLI's commands. */
  binDir: string;
  /** The bin folder of the Node the CLI runs on, when its `engines` exclude the harness's own. */
  nodeBin?: string;
}

export interface InstallOptions {
  /** Where the package is published (default npm). */
  registry?: "npm" | "pypi";
  /** Versions worth trying (an archive release that only prints a notice is not); default all. */
  versions?(version: string): boolean;
  tries?: number;
  /** The Python minor version a PyPI package requires (`3.12`), when the newest on the machine is not one it admits. */
  python?: string;
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
export function installClient(agent: string, pkg: string, version?: string, opts: InstallOptions = {}): Installed {
  if (opts.registry === "pypi") return installPython(agent, pkg, version, opts);
  const candidates = version ? [version] : publishedVersions(pkg).filter(opts.versions ?? (() => true));
  const failures: string[] = [];
  for (const v of candidates.slice(0, opts.tries ?? 6)) {
    const prefix = join(cacheDir(), agent, v);
    const binDir = join(prefix, "node_modules", ".bin");
    const nodeFile = join(prefix, "node");
    if (existsSync(binDir) && existsSync(join(prefix, "installed")))
      return {
        version: v,
        prefix,
        binDir,
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
      return { version: v, prefix, binDir, ...(nodeBin ? { nodeBin } : {}) };
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
  const python = newestPython(opts.python);
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
 * python3-venv is installed): on PATH as `python3.N`, or a pyenv version (whose shims run only the one selected);
 * of minor version `minor` when given.
 */
function newestPython(minor?: string): string {
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
  const best = found
    .filter((p) => minor === undefined || p.v.startsWith(`${minor}.`))
    .sort((a, b) => compareVersions(b.v, a.v))[0];
  if (!best)
    throw new Error(
      `no Python ${minor ?? "3"} with venv and ensurepip to install a PyPI package (apt-get install python3-venv, or set CAIRN_CLIENTS_PYTHON)`,
    );
  return best.cmd;
}

/** The `go` command: on PATH, else where the Go distribution puts it. */
function goCommand(): string {
  return spawnSync("go", ["version"]).status === 0 ? "go" : "/usr/local/go/bin/go";
}

function run(cmd: string, args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}) {
  const r = spawnSync(cmd, args, {
    cwd: opts.cwd,
    env: { ...process.env, ...opts.env },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  return { ok: r.status === 0, out: `${r.stdout ?? ""}${r.stderr ?? ""}` };
}

/**
 * A checkout of a Go module's repository to build from when the module proxy does not serve the module (it refuses
 * Crush's): `CAIRN_CLIENTS_GO_SOURCE`, a git repository whose `v<version>` tags are the releases.
 */
function goSource(): string | undefined {
  return process.env["CAIRN_CLIENTS_GO_SOURCE"] || undefined;
}

/**
 * Released versions of a Go module, newest first: as the module proxy lists them, else the checkout's tags, else the
 * versions already built into the cache.
 */
export function goVersions(agent: string, module: string): string[] {
  const listed = run(goCommand(), ["list", "-m", "-versions", module], { env: { GOFLAGS: "-mod=mod" } });
  const source = goSource();
  let tags: string[];
  if (listed.ok) tags = listed.out.trim().split(/\s+/).slice(1);
  else if (source) tags = run("git", ["-C", source, "tag", "--list", "v*"]).out.split("\n");
  else {
    const cached = join(cacheDir(), agent);
    tags = existsSync(cached) ? readdirSync(cached).filter((v) => existsSync(join(cached, v, "installed"))) : [];
    if (tags.length === 0)
      throw new Error(
        `the Go module proxy lists no version of ${module} (set CAIRN_CLIENTS_GO_SOURCE to a clone of its repository):\n${listed.out.trim()}`,
      );
  }
  const stable = tags.map((t) => t.trim().replace(/^v/, "")).filter((v) => /^\d+\.\d+\.\d+$/.test(v));
  return stable.sort(compareVersions).reverse();
}

/**
 * Builds a Go module's command at the requested version, or the newest one that builds, into
 * `<cache>/<agent>/<version>/bin`: `go install module@v<version>` through the module proxy, or, when the proxy does
 * not serve it, `go build` in a clone of `CAIRN_CLIENTS_GO_SOURCE` at the version's tag (version control stamping
 * on, so the binary reports the tag as its version, as an installed one does).
 */
export function installGoClient(agent: string, module: string, version?: string, tries = 3): Installed {
  const candidates = version ? [version] : goVersions(agent, module).slice(0, tries);
  const failures: string[] = [];
  for (const v of candidates) {
    const prefix = join(cacheDir(), agent, v);
    const binDir = join(prefix, "bin");
    if (existsSync(join(prefix, "installed"))) return { version: v, prefix, binDir };
    rmSync(prefix, { recursive: true, force: true });
    mkdirSync(binDir, { recursive: true });
    process.stderr.write(`building ${module}@v${v} into ${binDir}\n`);
    let r = run(goCommand(), ["install", `${module}@v${v}`], { env: { GOBIN: binDir } });
    const source = goSource();
    if (!r.ok && source) {
      const src = join(prefix, "src");
      r = run("git", ["clone", "--quiet", "--depth", "1", "--branch", `v${v}`, `file://${source}`, src]);
      if (r.ok)
        r = run(goCommand(), ["build", "-buildvcs=true", "-o", join(binDir, module.split("/").pop()!), "."], {
          cwd: src,
        });
      rmSync(src, { recursive: true, force: true });
    }
    if (r.ok) {
      writeFileSync(join(prefix, "installed"), `${module}@v${v}\n`);
      return { version: v, prefix, binDir };
    }
    failures.push(`${v}: ${r.out.trim().split("\n").slice(-3).join(" / ")}`);
    rmSync(prefix, { recursive: true, force: true });
  }
  throw new Error(`could not build ${module}:\n  ${failures.join("\n  ")}`);
}
