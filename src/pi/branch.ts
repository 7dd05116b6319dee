/**
 * Branch scanning shared by every piece of extension state (pure). State lives in `custom` entries and is rebuilt
 * from `ctx.sessionManager.getBranch()` (root → leaf), so it follows the branch the user is on and ignores
 * abandoned ones.
 */
import type { SessionEntry } from "@earendil-works/pi-coding-agent";

/** `data` of every `custom` entry of `customType` on `branch`, newest first. */
export function* customDataNewestFirst(branch: readonly SessionEntry[], customType: string): Generator<unknown> {
  for (let index = branch.length - 1; index >= 0; index--) {
    const entry = branch[index];
    if (entry?.type === "custom" && entry.customType === customType) yield entry.data;
  }
}
