/** The folders an agent's listing file names (Crush's list of projects), read where the roots are made. */
import { readFileSync } from "node:fs";
import { expandListings, type TranscriptRoot } from "../readers/roots.ts";

/** The roots, each listing file replaced by the folders it names; a listing that cannot be read names none. */
export function withListedRoots(roots: readonly TranscriptRoot[]): TranscriptRoot[] {
  return expandListings(roots, (path) => {
    try {
      return readFileSync(path, "utf8");
    } catch {
      return null;
    }
  });
}
