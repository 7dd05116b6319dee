/**
 * One run of an agent's real CLI against the fake model: installs the CLI, makes a fresh HOME and project folder
 * under `root` (fixed paths, so transcripts need no scrubbing of paths and stay comparable between refreshes),
 * writes the project's files, starts the fake server and lets `play` drive the CLI. Returns what the CLI wrote.
 */
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { DRIVERS } from "./agents/index.ts";
import { type AgentDriver, makeExec, type RunContext, spawnLines } from "./driver.ts";
import { startFakeServer } from "./fake/server.ts";
import { installClient, installGoClient } from "./install.ts";

export interface Played {
  driver: AgentDriver;
  version: string;
  home: string;
  /** The transcript files the CLI wrote, and the files beside them a reader also reads, relative to `home`. */
  kept: string[];
  /** Of those, the files that are not transcripts (a project's folder name, a usage log): kept to test detection. */
  sidecars: string[];
}

export interface PlayOptions {
  root: string;
  /** Files of the project folder, by path relative to it. */
  files: Record<string, string>;
  play(driver: AgentDriver, ctx: RunContext): Promise<void>;
}

export function findDriver(name: string): AgentDriver {
  const driver = DRIVERS.find((d) => d.name === name);
  if (!driver) throw new Error(`unknown agent '${name}' (known: ${DRIVERS.map((d) => d.name).join(", ")})`);
  return driver;
}

export function listFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = statSync(p, { throwIfNoEntry: false });
      if (!st) continue;
      if (st.isDirectory()) walk(p);
      else if (st.isFile()) out.push(relative(root, p));
    }
  };
  walk(root);
  return out.sort();
}

export async function playClient(name: string, version: string | undefined, opts: PlayOptions): Promise<Played> {
  const driver = findDriver(name);
  const installed = driver.go
    ? installGoClient(driver.name, driver.go, version)
    : installClient(driver.name, driver.pkg, version, {
        ...(driver.registry ? { registry: driver.registry } : {}),
        ...(driver.versions ? { versions: driver.versions } : {}),
        ...(driver.python ? { python: driver.python } : {}),
      });
  rmSync(opts.root, { recursive: true, force: true });
  const home = join(opts.root, "home");
  const dir = driver.projectInHome ? join(home, "project") : join(opts.root, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(opts.files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  const log = join(opts.root, "requests.jsonl");
  const server = await startFakeServer({
    protocols: driver.protocols,
    agent: driver.script,
    dir,
    log,
    extra: driver.extra?.bind(driver),
  });
  const binDir = installed.binDir;
  const env: Record<string, string> = {
    HOME: home,
    PATH: [binDir, installed.nodeBin ?? dirname(process.execPath), "/usr/local/bin", "/usr/bin", "/bin"].join(":"),
    LANG: "C.UTF-8",
    TERM: "dumb",
    NO_COLOR: "1",
    TMPDIR: join(opts.root, "tmp"),
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_STATE_HOME: join(home, ".local", "state"),
    XDG_CACHE_HOME: join(home, ".cache"),
  };
  mkdirSync(env["TMPDIR"]!, { recursive: true });
  const ctx: RunContext = {
    home,
    dir,
    binDir,
    version: installed.version,
    server,
    exec: makeExec(env, dir, join(opts.root, "run.log")),
    lines: (cmd, args, more) => spawnLines(env, dir, join(opts.root, "run.log"), cmd, args, more),
    log: (m) => process.stderr.write(`[${driver.name}] ${m}\n`),
  };
  try {
    ctx.log(`${driver.pkg}@${installed.version}, fake model at ${server.url}`);
    await opts.play(driver, ctx);
  } finally {
    await server.close();
  }
  const sidecars = listFiles(home).filter((f) => !driver.keep(f) && driver.sidecar?.(f) === true);
  const kept = [...listFiles(home).filter((f) => driver.keep(f)), ...sidecars];
  if (kept.length === sidecars.length) throw new Error(`${driver.name}: the CLI wrote no transcript under ${home}`);
  ctx.log(`${kept.length} files; ${server.requests()} model requests (log: ${log})`);
  return { driver, version: installed.version, home, kept, sidecars };
}
