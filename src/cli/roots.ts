import { existsSync } from "node:fs";
import { resolve } from "node:path";

/**
 * The folders (or files) given with --root, resolved against the working directory. One that does not exist is an
 * error, not a run that reads nothing and reports "indexed 0 files" (a typo would look like an empty history).
 */
export function explicitRoots(roots: readonly string[], cwd: string): string[] {
  const paths = roots.map((r) => resolve(cwd, r));
  const missing = paths.filter((p) => !existsSync(p));
  if (missing.length > 0)
    throw new Error(`--root ${missing.join(", ")}: no such file or folder${missing.length > 1 ? "s" : ""}`);
  return paths;
}
