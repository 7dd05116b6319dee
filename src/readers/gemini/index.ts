/** Gemini CLI: where it keeps chats (`$GEMINI_CLI_HOME` or HOME, then `.gemini/tmp`) and its reader. */
import { join } from "node:path";
import type { TranscriptRoot } from "../vocabulary.ts";
import { geminiReader } from "./reader.ts";

export const gemini = geminiReader("gemini", /[\\/]\.gemini[\\/]tmp[\\/]/);

export function geminiRoots(env: Record<string, string | undefined>, home: string): TranscriptRoot[] {
  return [{ provider: "gemini", dir: join(env["GEMINI_CLI_HOME"] || home, ".gemini", "tmp") }];
}
