import type { Command } from "../io.ts";

export const threadsCommand: Command = {
  name: "threads",
  summary: "(being built)",
  usage: "Usage: cairn threads",
  async run() {
    throw new Error("cairn threads is not built yet");
  },
};
