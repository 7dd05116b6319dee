import type { Command } from "../io.ts";

export const embedCommand: Command = {
  name: "embed",
  summary: "(being built)",
  usage: "Usage: cairn embed",
  async run() {
    throw new Error("cairn embed is not built yet");
  },
};
