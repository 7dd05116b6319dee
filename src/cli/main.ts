import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type CliIo, UsageError } from "./io.ts";
import { COMMANDS } from "./registry.ts";

const HELP = `cairn keeps AI coding-agent work resumable.

Usage: cairn                 index the agents' transcripts and show an overview
       cairn <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(12)} ${c.summary}`)
  .join("\n")}

Run 'cairn <command> --help' for a command's options.
`;

export async function main(argv: string[], io: CliIo): Promise<number> {
  // `cairn` alone (or with only options) is the main job: index the default folders and show the overview.
  const [first, ...others] = argv;
  const implicit = first === undefined || (first.startsWith("-") && first !== "--help" && first !== "-h");
  const name = implicit ? "overview" : first;
  const rest = implicit ? argv : others;
  if (name === "--help" || name === "-h" || name === "help") {
    io.stdout.write(HELP);
    return 0;
  }
  const entry = COMMANDS[name];
  if (!entry) {
    io.stderr.write(`cairn: unknown command '${name}'. Run 'cairn --help' for the list.\n`);
    return 2;
  }
  const command = await entry.load();
  if (rest.includes("--help") || rest.includes("-h")) {
    io.stdout.write(`${command.usage}\n`);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(
        `cairn ${name}: ${error.message}\n${error.showUsage ? `${command.usage}\n` : `Run 'cairn ${name} --help' for the syntax.\n`}`,
      );
      return 2;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(`cairn ${name}: ${message}\n`);
    if (io.env["CAIRN_DEBUG"] && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
    return 1;
  }
}

function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

/** Runs `cairn` as this process: real streams, exit code, Ctrl-C. `bin/cairn.js` calls it. */
export function run(argv: string[] = process.argv.slice(2)): Promise<void> {
  // `cairn … | head` closes the pipe early; that is the reader's choice, not an error.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw error;
  });
  const controller = new AbortController();
  process.once("SIGINT", () => controller.abort());
  process.once("SIGTERM", () => controller.abort());
  const io: CliIo = {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    signal: controller.signal,
  };
  return main(argv, io).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`cairn: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}

if (isEntryPoint()) void run();
