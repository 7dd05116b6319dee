/**
 * Qwen Code: chats under `~/.qwen/projects` (current) and Gemini CLI's layout under `~/.qwen/tmp` (older
 * releases); `$QWEN_HOME` moves the `.qwen` folder.
 */
import { geminiReader } from "../gemini/reader.ts";
import { qwenReader } from "./reader.ts";

export const qwen = qwenReader;
/** Older Qwen Code chats, in Gemini CLI's format. */
export const qwenLegacy = geminiReader("qwen", /[\\/]\.qwen[\\/]tmp[\\/]/, "qwen-gemini");

export { qwenRoots } from "./roots.ts";
