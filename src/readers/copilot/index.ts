/** GitHub Copilot CLI: sessions under `$COPILOT_HOME` (default `~/.copilot`) `/session-state`, and its reader. */
import { join } from "node:path";
import type { TranscriptRoot } from "../vocabulary.ts";
import { copilotReader } from "./reader.ts";

export const copilot = copilotReader;

export function copilotRoots(env: Record<string, string | undefined>, home: string): TranscriptRoot[] {
  return [{ provider: "copilot", dir: join(env["COPILOT_HOME"] || join(home, ".copilot"), "session-state") }];
}
