/** What a CLI command may touch: its streams, environment and working directory. Tests pass in-memory ones. */
export interface CliIo {
  stdout: { write(chunk: string): unknown; isTTY?: boolean; columns?: number };
  stderr: { write(chunk: string): unknown; isTTY?: boolean };
  env: Record<string, string | undefined>;
  cwd: string;
  /** Resolves when the command should stop (Ctrl-C), for long-running commands. */
  signal?: AbortSignal;
}

/** A mistake in how the command was called: printed as one line, exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
  /** Whether to print the command's usage after the message (not for a mistake inside an argument's value). */
  readonly showUsage: boolean;
  constructor(message: string, opts: { showUsage?: boolean } = {}) {
    super(message);
    this.showUsage = opts.showUsage ?? true;
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
