/**
 * Qwen Code: chats under `~/.qwen/projects` (current) and Gemini CLI's layout under `~/.qwen/tmp` (older
 * releases); `$QWEN_HOME` moves the `.qwen` folder.
 */
import { join } from "node:path";
import { defineAgent } from "../agent.ts";
import { geminiReader } from "../gemini/reader.ts";
import { qwenReader } from "./reader.ts";

/** Older Qwen Code chats are Gemini CLI's format: only their folder tells them apart. */
const qwenLegacy = { ...geminiReader("qwen", /[\\/]\.qwen[\\/]tmp[\\/]/, "qwen-gemini"), byFolder: true };

export const qwen = defineAgent({
  provider: "qwen",
  versionKey: "version",
  name: "Qwen Code",
  readers: [qwenReader, qwenLegacy],
  roots(env, home) {
    const dir = env["QWEN_HOME"] || join(home, ".qwen");
    return [
      { provider: "qwen", dir: join(dir, "projects") },
      { provider: "qwen", dir: join(dir, "tmp") },
    ];
  },
  transcriptFile: (name) => /^session-.*\.json$/.test(name),
  tools: { shell: ["run_shell_command"], read: ["read_many_files"], edit: ["replace"], plan: ["todo_write"] },
});
