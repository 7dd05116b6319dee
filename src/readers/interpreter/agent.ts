/**
 * Open Interpreter (`interpreter`): conversations under its config folder, the platform's for `open-interpreter`
 * (`$XDG_CONFIG_HOME/open-interpreter`, else `~/.config/open-interpreter`; `~/Library/Application
 * Support/open-interpreter` on macOS), in `conversations/`, one `<first words>__<date>.json` each. The folder beside
 * it, `profiles/`, holds its settings.
 */
import { join } from "node:path";
import { defineAgent } from "../agent.ts";
import { interpreterReader } from "./reader.ts";

export const interpreter = defineAgent({
  provider: "interpreter",
  name: "Open Interpreter",
  readers: [interpreterReader],
  roots: (env, home) => [
    {
      provider: "interpreter",
      dir: join(env["XDG_CONFIG_HOME"] || join(home, ".config"), "open-interpreter", "conversations"),
      shallow: true,
    },
    {
      provider: "interpreter",
      dir: join(home, "Library", "Application Support", "open-interpreter", "conversations"),
      shallow: true,
    },
  ],
  // Named by its first words and the time it was first saved: `<words>__December_06_2026_17-48-07.json`.
  transcriptFile: (name) => /__[A-Z][a-z]+_\d{2}_\d{4}_\d{2}-\d{2}-\d{2}\.json$/.test(name),
  // Its one tool runs code in a language; a shell language's code is the command line.
  tools: { shell: ["execute"] },
  // No `start`: a first message on its command line is its one-shot "I …" mode (told to act in one command, not
  // to read first), which no resume brief wants.
});
