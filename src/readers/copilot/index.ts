/** GitHub Copilot CLI: sessions under `$COPILOT_HOME` (default `~/.copilot`) `/session-state`, and its reader. */
import { copilotReader } from "./reader.ts";

export const copilot = copilotReader;

export { copilotRoots } from "./roots.ts";
