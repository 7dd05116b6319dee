/** Gemini CLI: where it keeps chats (`$GEMINI_CLI_HOME` or HOME, then `.gemini/tmp`) and its reader. */
import { geminiReader } from "./reader.ts";

export const gemini = geminiReader("gemini", /[\\/]\.gemini[\\/]tmp[\\/]/);

export { geminiRoots } from "./roots.ts";
