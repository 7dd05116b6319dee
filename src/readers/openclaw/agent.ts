/**
 * OpenClaw (`openclaw`): each agent's sessions under `$OPENCLAW_STATE_DIR` (default `~/.openclaw`, in
 * `$OPENCLAW_HOME` when set) `/agents/<agent>/`: the agent's SQLite database in `agent/` (2026.8 on), pi-format
 * JSONL files in `sessions/` (before).
 */
import { join } from "node:path";
import { defineAgent } from "../agent.ts";
import { openclawDatabaseReader, openclawFileReader } from "./reader.ts";

export const openclaw = defineAgent({
  provider: "openclaw",
  versionKey: "version",
  name: "OpenClaw",
  readers: [openclawDatabaseReader, openclawFileReader],
  roots(env, home) {
    const state = env["OPENCLAW_STATE_DIR"] || join(env["OPENCLAW_HOME"] || home, ".openclaw");
    return [{ provider: "openclaw", dir: join(state, "agents") }];
  },
  transcriptFile: (name) => name === "openclaw-agent.sqlite",
  tools: { shell: ["exec"] },
  start: {
    // `chat` is the terminal UI on the embedded runtime (no Gateway needed); `--message` is its first prompt.
    inline: (text) => ["openclaw", "chat", "--message", text],
    // It reads no file at start-up: it is asked to read the brief first.
    file: (path) => [
      "openclaw",
      "chat",
      "--message",
      `Read the resume brief in ${path} before anything else, all of it (it is long: read it in parts if need be), then continue the work it describes.`,
    ],
  },
});
