/**
 * OS sandbox for bash in read-only mode. On Linux with a working bubblewrap (`bwrap`), a command runs with the whole
 * filesystem mounted read-only, a private empty `/tmp` and the project directory re-exposed read-only, so writes the
 * classifier misses fail with EROFS instead of landing. Elsewhere only the classifier guards bash.
 */
import { spawnSync } from "node:child_process";

export const SANDBOX_KINDS = ["bwrap", "none"] as const;
export type SandboxKind = (typeof SANDBOX_KINDS)[number];

export interface SandboxSupport {
  kind: SandboxKind;
  /** Why no sandbox is available, for the user-facing notice. */
  detail?: string;
}

/** Answers, once per process, whether commands can be sandboxed. */
export type SandboxProbe = () => SandboxSupport;

/** Probe by running `true` inside the exact sandbox read-only mode uses; containers without user namespaces fail here. */
export function createBwrapProbe(platform: NodeJS.Platform = process.platform): SandboxProbe {
  let cached: SandboxSupport | undefined;
  return () => {
    cached ??= probeBwrap(platform);
    return cached;
  };
}

function probeBwrap(platform: NodeJS.Platform): SandboxSupport {
  if (platform !== "linux") return { kind: "none", detail: `no sandbox on ${platform}` };
  const probe = spawnSync("bwrap", [...bwrapArgs("/"), "--", "/bin/sh", "-c", "true"], {
    stdio: "ignore",
    timeout: 5_000,
  });
  if (probe.error) return { kind: "none", detail: "bwrap is not installed" };
  if (probe.status !== 0) return { kind: "none", detail: "bwrap cannot create a sandbox here" };
  return { kind: "bwrap" };
}

function bwrapArgs(cwd: string): string[] {
  return [
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--tmpfs",
    "/tmp",
    // A project under /tmp would vanish behind the private tmpfs; mount it back, still read-only.
    "--ro-bind",
    cwd,
    cwd,
    "--die-with-parent",
    "--new-session",
    "--chdir",
    cwd,
  ];
}

/** The shell command line that runs `command` inside the read-only sandbox. */
export function wrapInBwrap(command: string, cwd: string, shell = "/bin/bash"): string {
  return ["bwrap", ...bwrapArgs(cwd), "--", shell, "-c", command].map(shellQuote).join(" ");
}

export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}
