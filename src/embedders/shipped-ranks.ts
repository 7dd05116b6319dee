/**
 * The o200k token ranks shipped in cairn's package (`data/o200k-ranks.bin`, written by
 * `scripts/build-token-table.ts`): read here, beside the other shipped table (the word vectors), so that `resume/`
 * stays pure and only parses them (resume/bpe-count.ts). Read once per process, on the first count.
 */
import { readFileSync } from "node:fs";

let bytes: Buffer | null = null;

export function shippedRankBytes(): Buffer {
  if (!bytes) {
    const url = new URL("../../data/o200k-ranks.bin", import.meta.url);
    try {
      bytes = readFileSync(url);
    } catch (error) {
      throw new Error(`cairn's token ranks are missing (${url.pathname}): reinstall cairn`, { cause: error });
    }
  }
  return bytes;
}
