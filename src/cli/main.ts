// First: under an old Node this exits with a message before anything that would crash it is loaded.
import "./node-guard.ts";
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { cairnVersion } from "../app/version.ts";
import { isPgUrl } from "../store/pg/url.ts";
import { takeColorFlag, useColor } from "./color.ts";
import { reportError } from "./exit.ts";
import { type CliIo, UsageError } from "./io.ts";
import { COMMANDS } from "./registry.ts";

const HELP = `cairn keeps AI coding-agent work resumable.

Usage: cairn                 index the agents' transcripts and show an overview
       cairn <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(12)} ${c.summary}`)
  .join("\n")}

Options for every command:
  --db PATH            the index, for every command that uses one: default $CAIRN_DB, else
                       $XDG_DATA_HOME/cairn/cairn.db; a postgres://… URL opens a team index
  --json               print only JSON (errors too: {"error": {"code", "message", "hint"}})
  --color WHEN         auto (default), always or never; FORCE_COLOR and NO_COLOR are honoured
  --help, -h           a command's options
  --version, -V        cairn's version

Exit codes: 0 ok, 1 no results (search) or a failure, 2 a usage mistake, 3 no model configured (ask),
130 interrupted. See docs/cli.md.
Run 'cairn <command> --help' for a command's options.
`;

/** Whether the command's output (and so its errors) is JSON. */
function wantsJson(argv: readonly string[]): boolean {
  return argv.some((a, i) => a === "--json" || a === "--format=json" || (a === "--format" && argv[i + 1] === "json"));
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  let args: string[];
  try {
    const color = takeColorFlag(argv);
    args = color.rest;
    io.color ??= useColor(color.choice, io.env, io.stdout);
  } catch (error) {
    return reportError(io, null, error, wantsJson(argv));
  }
  // `cairn` alone (or with only options) is the main job: index the default folders and show the overview.
  const [first, ...others] = args;
  if (first === "--version" || first === "-V" || first === "version") {
    io.stdout.write(`cairn ${cairnVersion()}\n`);
    return 0;
  }
  const implicit = first === undefined || (first.startsWith("-") && first !== "--help" && first !== "-h");
  const name = implicit ? "overview" : first;
  const rest = implicit ? args : others;
  if (name === "--help" || name === "-h" || name === "help") {
    io.stdout.write(HELP);
    return 0;
  }
  const json = wantsJson(rest);
  const entry = COMMANDS[name];
  if (!entry)
    return reportError(
      io,
      null,
      new UsageError(`unknown command '${name}'`, "'cairn --help' lists the commands"),
      json,
    );
  const command = await entry.load();
  if (rest.includes("--help") || rest.includes("-h")) {
    io.stdout.write(`${command.usage}\n`);
    return 0;
  }
  try {
    // A team index opens synchronously once a command asks; its modules are loaded only when one is named.
    if (namesTeamIndex(rest, io.env)) await (await import("../app/open.ts")).loadTeamStore();
    return await command.run(rest, io);
  } catch (error) {
    return reportError(io, name, error, json);
  }
}

function namesTeamIndex(argv: readonly string[], env: CliIo["env"]): boolean {
  return (
    isPgUrl(env["CAIRN_DB"] ?? "") ||
    argv.some((a, i) => isPgUrl(a.replace(/^--[a-z-]+=/, "")) || (a === "--db" && isPgUrl(argv[i + 1] ?? "")))
  );
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
    stdin: process.stdin,
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
      process.exitCode = reportError(io, null, error, false);
    },
  );
}

if (isEntryPoint()) void run();
