/**
 * Installs an agent's CLI from PyPI into a virtual environment of its own under the cache folder (never into the
 * project or the machine's Python): the newest version that installs, walking back over versions whose pinned
 * dependencies the index cannot satisfy. The environment is made with `python3 -m venv` by the first interpreter
 * on the machine new enough for the package (`CAIRN_CLIENTS_PYTHON` names one).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { cacheDir, compareVersions } from "./install.ts";

/** What the harness needs to install a CLI published on PyPI. */
export interface PipPackage {
  /** The oldest Python the package runs on, `major.minor`. */
  python: string;
}

export interface InstalledPip {
  version: string;
  prefix: string;
  /** The environment's `bin` folder, holding the CLI's command. */
  binDir: string;
}

function run(cmd: string, args: string[]): { ok: boolean; out: string } {
  const r = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  return { ok: r.status === 0, out: `${r.stdout ?? ""}${r.stderr ?? ""}` };
}

/** The `major.minor` of an interpreter, or null when it does not run. */
function pythonVersion(python: string): string | null {
  const r = run(python, ["-c", "import sys; print('%d.%d' % sys.version_info[:2])"]);
  return r.ok ? r.out.trim() : null;
}

/** An interpreter at least `minimum`: the override, then the usual names, then pyenv's installed versions. */
export function findPython(minimum: string): string {
  const pyenv = join(process.env["PYENV_ROOT"] ?? join(homedir(), ".pyenv"), "versions");
  const pyenvs = existsSync(pyenv)
    ? readdirSync(pyenv)
        .sort(compareVersions)
        .reverse()
        .map((v) => join(pyenv, v, "bin", "python3"))
    : [];
  const override = process.env["CAIRN_CLIENTS_PYTHON"];
  const candidates = [...(override ? [override] : []), "python3", "python3.13", "python3.12", ...pyenvs];
  for (const python of candidates) {
    const v = pythonVersion(python);
    if (v !== null && compareVersions(v, minimum) >= 0) return python;
  }
  throw new Error(`no Python ${minimum} or newer found (set CAIRN_CLIENTS_PYTHON to one)`);
}

/** Stable versions on the index that the environment's Python can install, newest first. */
function pypiVersions(pip: string, pkg: string): string[] {
  const r = run(pip, ["index", "versions", pkg]);
  const line = /Available versions: (.*)/.exec(r.out)?.[1];
  if (!r.ok || !line) throw new Error(`could not list the versions of ${pkg} on PyPI:\n${r.out.slice(-1000)}`);
  return line
    .split(",")
    .map((v) => v.trim())
    .filter((v) => /^\d+\.\d+\.\d+$/.test(v))
    .sort(compareVersions)
    .reverse();
}

/** An environment to ask the index with (the machine's own pip may be older than the interpreter). */
function probePip(root: string, python: string): string {
  const probe = join(root, ".probe");
  if (!existsSync(join(probe, "bin", "pip"))) {
    mkdirSync(root, { recursive: true });
    const made = run(python, ["-m", "venv", probe]);
    if (!made.ok) throw new Error(`${python} -m venv failed:\n${made.out.slice(-1000)}`);
  }
  return join(probe, "bin", "pip");
}

/** The requested version, or the newest one that installs (trying at most `tries` versions). */
export function installPipClient(
  agent: string,
  pkg: string,
  spec: PipPackage,
  version?: string,
  tries = 6,
): InstalledPip {
  const root = join(cacheDir(), agent);
  const python = findPython(spec.python);
  const candidates = version ? [version] : pypiVersions(probePip(root, python), pkg).slice(0, tries);
  const failures: string[] = [];
  for (const v of candidates) {
    const prefix = join(root, v);
    const binDir = join(prefix, "venv", "bin");
    if (existsSync(join(prefix, "installed"))) return { version: v, prefix, binDir };
    rmSync(prefix, { recursive: true, force: true });
    mkdirSync(prefix, { recursive: true });
    process.stderr.write(`installing ${pkg}==${v} into ${prefix} with ${python}\n`);
    const made = run(python, ["-m", "venv", join(prefix, "venv")]);
    const r = made.ok
      ? run(join(binDir, "pip"), ["install", "--quiet", "--disable-pip-version-check", `${pkg}==${v}`])
      : made;
    if (r.ok) {
      writeFileSync(join(prefix, "installed"), `${pkg}==${v}\n`);
      return { version: v, prefix, binDir };
    }
    failures.push(`${v}: ${r.out.split("\n").find((l) => /error/i.test(l)) ?? "failed"}`);
    rmSync(prefix, { recursive: true, force: true });
  }
  throw new Error(`could not install ${pkg}:\n  ${failures.join("\n  ")}`);
}
