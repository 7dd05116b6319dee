/**
 * A new user's machine for CLI tests: an empty home, no XDG or agent variables, nothing inherited from the
 * machine running the tests but PATH (so the same `node` runs).
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI } from "../helpers/cli.ts";

export function freshHome(parent = tmpdir()): { home: string; env: Record<string, string> } {
  const home = mkdtempSync(join(parent, "cairn-home-"));
  mkdirSync(home, { recursive: true });
  return { home, env: freshEnv(home) };
}

export function freshEnv(home: string): Record<string, string> {
  return { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: home, LANG: "C.UTF-8" };
}

export interface Running {
  /** Everything written so far. */
  stdout(): string;
  stderr(): string;
  signal(sig: NodeJS.Signals): void;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts the built CLI as its own process (for signals and long runs). */
export function startCairn(args: string[], env: Record<string, string>, cwd?: string): Running {
  const child = spawn(process.execPath, [CLI, ...args], { env, cwd, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.setEncoding("utf8").on("data", (s: string) => {
    out += s;
  });
  child.stderr.setEncoding("utf8").on("data", (s: string) => {
    err += s;
  });
  return {
    stdout: () => out,
    stderr: () => err,
    signal: (sig) => child.kill(sig),
    exited: new Promise((resolve) => child.on("close", (code, signal) => resolve({ code, signal }))),
  };
}

/** Waits for a condition, checking often; fails with the label after the deadline. */
export async function until(label: string, cond: () => boolean, ms = 20_000): Promise<void> {
  const start = Date.now();
  while (!cond()) {
    if (Date.now() - start > ms) throw new Error(`timed out waiting for: ${label}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Runs the built CLI to its end without blocking this process (which may be serving the CLI's requests). */
export async function runCairn(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = startCairn(args, env);
  const { code } = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}
