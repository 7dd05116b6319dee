import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "./transcripts.ts";

export const CLI = join(REPO, "dist/cli/main.js");

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built `cairn` CLI (what `npm install` builds and the bin points at). */
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
