/** What a CLI command may touch: its streams, environment and working directory. Tests pass in-memory ones. */
import { CairnError } from "../common/errors.ts";

export interface CliIo {
  /** Only whether it is a terminal: `--reveal-secrets` is for a person at one. */
  stdin?: { isTTY?: boolean };
  stdout: { write(chunk: string): unknown; isTTY?: boolean; columns?: number };
  stderr: { write(chunk: string): unknown; isTTY?: boolean };
  env: Record<string, string | undefined>;
  cwd: string;
  /** Resolves when the command should stop (Ctrl-C), for long-running commands. */
  signal?: AbortSignal;
  /** Whether to color stdout; decided once by `main` from --color, FORCE_COLOR, NO_COLOR and the terminal. */
  color?: boolean;
}

/** A mistake in how the command was called: one line, a pointer to --help, exit code 2. */
export class UsageError extends CairnError {
  override name = "UsageError";
  constructor(message: string, hint: string | null = null) {
    super("usage", message, hint);
  }
}

export type CommandRun = (argv: string[], io: CliIo) => Promise<number>;

export interface Command {
  name: string;
  summary: string;
  usage: string;
  run: CommandRun;
}

export function writeJson(io: CliIo, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
