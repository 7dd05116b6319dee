import type { Command } from "./io.ts";

/**
 * Every `cairn` subcommand, loaded lazily so that `cairn inspect` does not pay for the web server's imports.
 * Add one line per command.
 */
export const COMMANDS: Record<string, { summary: string; load: () => Promise<Command> }> = {
  index: {
    summary: "index transcripts into the database",
    load: async () => (await import("./commands/index-command.ts")).indexCommand,
  },
  inspect: {
    summary: "print what cairn makes of transcript files",
    load: async () => (await import("./commands/inspect.ts")).inspectCommand,
  },
  serve: {
    summary: "serve a live agent session to browser tabs",
    load: async () => (await import("./commands/serve.ts")).serveCommand,
  },
};
