/** Types of scripts/clone-bundle.js (plain JavaScript, for bin/cairn.js) for the build scripts that write its stamp. */
export interface CloneOutput {
  dir: string;
  script: string;
  inputs: string[];
}
export const STAMP: string;
export const OUTPUTS: { bundle: CloneOutput; web: CloneOutput };
export function sourcesStamp(root: string, output: CloneOutput): string;
export function cloneReady(root: string, argv: readonly string[], stderr?: { write(text: string): unknown }): boolean;
