/** Where Cline CLI keeps its sessions: `~/.cline/data/sessions`. */
import { join } from "node:path";
import type { TranscriptRoot } from "../vocabulary.ts";

export function clineRoots(home: string): TranscriptRoot[] {
  return [{ provider: "cline", dir: join(home, ".cline", "data", "sessions") }];
}
