/**
 * `cairn tui` run through the built CLI in a private tmux server, on an index of the real transcripts in a fresh
 * HOME. The shell prints a line before and after it, so a test can see the screen given back on exit.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { CLI } from "../helpers/cli.ts";
import { startTmux, type TmuxSession } from "../pi/helpers/tmux.ts";

export interface TuiRun extends TmuxSession {
  resize(width: number, height: number): void;
  /** The right pane's text on each row (after the first │). */
  right(screen: string): string[];
}

export function startCairnTui(opts: {
  dir: string;
  db: string;
  /** The arguments before --db; `tui` unless given. */
  args?: string[];
  width?: number;
  height?: number;
  /** More variables for cairn's environment. */
  env?: Record<string, string>;
}): TuiRun {
  const home = join(opts.dir, "home");
  const work = join(opts.dir, "work");
  mkdirSync(home, { recursive: true });
  mkdirSync(work, { recursive: true });
  const socketPath = join(opts.dir, "tmux.sock");
  const quoted = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
  const script = [
    "echo before-tui",
    [process.execPath, CLI, ...(opts.args ?? ["tui"]), "--db", opts.db].map(quoted).join(" "),
    'echo "cairn exited $?"',
    "exec sleep 600",
  ].join("; ");
  const session = startTmux({
    socketPath,
    cwd: work,
    width: opts.width ?? 120,
    height: opts.height ?? 32,
    command: [
      "env",
      "-i",
      `PATH=${dirname(process.execPath)}:/usr/bin:/bin`,
      `HOME=${home}`,
      "TERM=xterm-256color",
      "LANG=C.UTF-8",
      "NO_COLOR=1",
      ...Object.entries(opts.env ?? {}).map(([k, v]) => `${k}=${v}`),
      "sh",
      "-c",
      script,
    ],
  });
  return {
    ...session,
    resize(width, height) {
      execFileSync("tmux", [
        "-S",
        socketPath,
        "resize-window",
        "-t",
        "main",
        "-x",
        String(width),
        "-y",
        String(height),
      ]);
    },
    right: (screen) => screen.split("\n").map((row) => row.split("│").slice(1).join("│")),
  };
}
