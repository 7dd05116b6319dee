/** Where Gemini CLI keeps its chats: `$GEMINI_CLI_HOME` or HOME, then `.gemini/tmp`. */
import { join } from "node:path";
import type { TranscriptRoot } from "../vocabulary.ts";
export function geminiRoots(env: Record<string, string | undefined>, home: string): TranscriptRoot[] {
  return [{ provider: "gemini", dir: join(env["GEMINI_CLI_HOME"] || home, ".gemini", "tmp") }];
}
