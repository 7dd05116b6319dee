/** Where GitHub Copilot CLI keeps its sessions: `$COPILOT_HOME` (default `~/.copilot`) `/session-state`. */
import { join } from "node:path";
import type { TranscriptRoot } from "../vocabulary.ts";
export function copilotRoots(env: Record<string, string | undefined>, home: string): TranscriptRoot[] {
  return [{ provider: "copilot", dir: join(env["COPILOT_HOME"] || join(home, ".copilot"), "session-state") }];
}
