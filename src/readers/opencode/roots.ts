/** Where OpenCode and Kilo Code keep their databases (apart from their reader, so listing roots loads no parser). */
import { isAbsolute, join } from "node:path";
import type { TranscriptRoot } from "../vocabulary.ts";
export function opencodeRoots(env: Record<string, string | undefined>, home: string): TranscriptRoot[] {
  const data = env["XDG_DATA_HOME"] || join(home, ".local", "share");
  const roots: TranscriptRoot[] = [
    { provider: "opencode", dir: join(data, "opencode"), shallow: true },
    { provider: "kilo", dir: join(data, "kilo"), shallow: true },
  ];
  for (const [provider, name] of [
    ["opencode", "OPENCODE_DB"],
    ["kilo", "KILO_DB"],
  ] as const) {
    const db = env[name];
    if (db && db !== ":memory:") roots.push({ provider, dir: isAbsolute(db) ? db : join(data, provider, db) });
  }
  return roots;
}
