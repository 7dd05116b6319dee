/**
 * Qwen Code: chats under `~/.qwen/projects` (current) and Gemini CLI's layout under `~/.qwen/tmp` (older
 * releases); `$QWEN_HOME` moves the `.qwen` folder.
 */
import { join } from "node:path";
import { geminiReader } from "../gemini/reader.ts";
import type { TranscriptRoot } from "../vocabulary.ts";
import { qwenReader } from "./reader.ts";

export const qwen = qwenReader;
/** Older Qwen Code chats, in Gemini CLI's format. */
export const qwenLegacy = geminiReader("qwen", /[\\/]\.qwen[\\/]tmp[\\/]/, "qwen-gemini");

export function qwenRoots(env: Record<string, string | undefined>, home: string): TranscriptRoot[] {
  const dir = env["QWEN_HOME"] || join(home, ".qwen");
  return [
    { provider: "qwen", dir: join(dir, "projects") },
    { provider: "qwen", dir: join(dir, "tmp") },
  ];
}
