/** Where Factory Droid keeps its sessions: `~/.factory/sessions`. */
import { join } from "node:path";
import type { TranscriptRoot } from "../vocabulary.ts";

export function droidRoots(home: string): TranscriptRoot[] {
  return [{ provider: "droid", dir: join(home, ".factory", "sessions") }];
}
