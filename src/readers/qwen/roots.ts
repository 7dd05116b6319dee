/** Where Qwen Code keeps its chats: `~/.qwen/projects` and, for older releases, `~/.qwen/tmp`. */
import { join } from "node:path";
import type { TranscriptRoot } from "../vocabulary.ts";
export function qwenRoots(env: Record<string, string | undefined>, home: string): TranscriptRoot[] {
  const dir = env["QWEN_HOME"] || join(home, ".qwen");
  return [
    { provider: "qwen", dir: join(dir, "projects") },
    { provider: "qwen", dir: join(dir, "tmp") },
  ];
}
