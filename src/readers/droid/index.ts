/** Factory Droid: sessions under `~/.factory/sessions`, and its reader. */
import { droidReader } from "./reader.ts";

export const droid = droidReader;

export { droidRoots } from "./roots.ts";
