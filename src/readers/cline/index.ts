/** Cline CLI: sessions under `~/.cline/data/sessions`, and its reader. */
import { clineReader } from "./reader.ts";

export const cline = clineReader;

export { clineRoots } from "./roots.ts";
