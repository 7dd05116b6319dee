/**
 * Read-only mode as branch state (pure): each change is a `custom` entry and the newest one on the branch decides.
 */
import type { SessionEntry } from "@earendil-works/pi-coding-agent";
import { customDataNewestFirst } from "../branch.ts";

export const READONLY_ENTRY_TYPE = "cairn-readonly";
/** The footer status while read-only mode is on. */
export const READONLY_STATUS_TEXT = "🔒 readonly";

export const READONLY_ARGUMENTS = ["on", "off", "toggle"] as const;
export type ReadonlyArgument = (typeof READONLY_ARGUMENTS)[number];

/** `/readonly` arguments: none toggles, `on` and `off` set the mode; anything else is not an argument. */
export function parseReadonlyArgs(args: string): ReadonlyArgument | undefined {
  const text = args.trim().toLowerCase();
  if (text.length === 0) return "toggle";
  return text === "on" || text === "off" ? text : undefined;
}

export interface ReadonlyState {
  enabled: boolean;
}

export interface ReadonlyEntry {
  version: 1;
  enabled: boolean;
  updatedAt: number;
}

export function parseReadonlyEntry(data: unknown): ReadonlyEntry | null {
  if (typeof data !== "object" || data === null) return null;
  const { version, enabled, updatedAt } = data as Record<string, unknown>;
  if (version !== 1 || typeof enabled !== "boolean" || typeof updatedAt !== "number") return null;
  return { version: 1, enabled, updatedAt };
}

/** Off unless the newest valid readonly entry on the branch turned it on. */
export function latestReadonly(branch: readonly SessionEntry[]): boolean {
  for (const data of customDataNewestFirst(branch, READONLY_ENTRY_TYPE)) {
    const entry = parseReadonlyEntry(data);
    if (entry) return entry.enabled;
  }
  return false;
}
