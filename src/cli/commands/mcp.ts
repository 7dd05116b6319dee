import type { Command } from "../io.ts";

export const mcpCommand: Command = {
  name: "mcp",
  summary: "(being built)",
  usage: "Usage: cairn mcp",
  async run() {
    throw new Error("cairn mcp is not built yet");
  },
};
