import type { Command } from "../io.ts";

export const inspectCommand: Command = {
  name: "inspect",
  summary: "print what cairn makes of transcript files",
  usage: "Usage: cairn inspect <file|dir>... [--json]",
  async run(_argv, io) {
    io.stderr.write("cairn inspect: not built yet\n");
    return 1;
  },
};
