import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "./transcripts.ts";

/**
 * The bundle an installed `cairn` runs (bin/cairn.js; scripts/build-cli.ts), so that the CLI tests test what users
 * run: it runs itself when it is the process's script, as dist/cli/main.js does.
 */
export const CLI = join(REPO, "dist/bundle/cairn.js");

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built `cairn` CLI (the bundle the bin runs in an installed package). */
export function cairn(
  args: string[],
  opts: { env?: Record<string, string>; cwd?: string; input?: string } = {},
): CliRun {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` (npm test does it first)`);
  const res = spawnSync(process.execPath, [CLI, ...args], {
    cwd: opts.cwd ?? REPO,
    env: { ...process.env, ...opts.env },
    encoding: "utf8",
    input: opts.input,
    maxBuffer: 256 * 1024 * 1024,
  });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}

/**
 * Runs the built CLI without blocking this process, for tests whose fake servers answer from it; `onOut` sees
 * stdout as it comes.
 */
export function cairnAsync(
  args: string[],
  opts: { env?: Record<string, string>; cwd?: string; onOut?: (soFar: string) => void } = {},
): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: opts.cwd ?? REPO,
      env: { ...process.env, ...opts.env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
      opts.onOut?.(stdout);
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** A word for `sh -c`, quoted so the shell passes it through as it is. */
function shellWord(s: string): string {
  return `'${s.replaceAll("'", "'\\''")}'`;
}

/**
 * Runs the built CLI under a real pseudo-terminal (util-linux `script`): what a person at a terminal runs, for the
 * behaviour that depends on one (`--reveal-secrets`, colour, what reaches the screen). The terminal turns `\n`
 * into `\r\n`; stdout here is the terminal's output, stderr joined into it.
 */
export function cairnInTerminal(args: string[], opts: { env?: Record<string, string>; cwd?: string } = {}): CliRun {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` (npm test does it first)`);
  const command = [process.execPath, CLI, ...args].map(shellWord).join(" ");
  const res = spawnSync("script", ["-qec", command, "/dev/null"], {
    cwd: opts.cwd ?? REPO,
    env: { ...process.env, ...opts.env },
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}
