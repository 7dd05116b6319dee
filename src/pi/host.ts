/**
 * What the extension takes from the running pi at run time, handed in by the entry pi loads (`./index.ts`). Every
 * other module imports pi's packages for types only: pi's loader gives an extension pi's own modules only in the
 * file it transpiles, and transpiling the whole extension cost about a second at each first start (the cache is
 * the temp folder), so only the small entry is transpiled and the rest loads as plain ES modules.
 */
import type {
  CustomEditor,
  createLocalBashOperations,
  parseFrontmatter,
  stripFrontmatter,
} from "@earendil-works/pi-coding-agent";
import type { matchesKey } from "@earendil-works/pi-tui";
import type { Type } from "typebox";

export interface PiHost {
  CustomEditor: typeof CustomEditor;
  createLocalBashOperations: typeof createLocalBashOperations;
  parseFrontmatter: typeof parseFrontmatter;
  stripFrontmatter: typeof stripFrontmatter;
  matchesKey: typeof matchesKey;
  Type: typeof Type;
}
