/**
 * The notebook model (pure): task-scoped named pages kept as `custom` entries on the session tree. Every change is
 * an event (`write` with the page's full content, `delete`, `clear`); the pages of a branch are rebuilt by reading
 * its events newest first, where the first event seen for a name decides it and a `clear` hides everything older.
 */
import type { SessionEntry } from "@earendil-works/pi-coding-agent";
import { customDataNewestFirst } from "../branch.ts";

export const NOTEBOOK_ENTRY_TYPE = "cairn-notebook";
export const NOTEBOOK_OPS = ["write", "delete", "clear"] as const;
export type NotebookOp = (typeof NOTEBOOK_OPS)[number];

export type NotebookEntry =
  | { version: 1; op: "write"; name: string; content: string; updatedAt: number }
  | { version: 1; op: "delete"; name: string; updatedAt: number }
  | { version: 1; op: "clear"; updatedAt: number };

export interface NotebookPage {
  name: string;
  content: string;
  updatedAt: number;
}

export interface NotebookState {
  pages: Map<string, NotebookPage>;
}

/** Page names are short identifiers so they read well in the index and in `/notebook show <name>`. */
export const PAGE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const MAX_PAGE_CHARS = 20_000;

export function createNotebookState(): NotebookState {
  return { pages: new Map() };
}

export function parseNotebookEntry(data: unknown): NotebookEntry | null {
  if (typeof data !== "object" || data === null) return null;
  const record = data as Record<string, unknown>;
  const { version, op, name, content, updatedAt } = record;
  if (version !== 1 || typeof updatedAt !== "number" || !Number.isFinite(updatedAt)) return null;
  if (op === "clear") return { version: 1, op, updatedAt };
  if (typeof name !== "string" || !PAGE_NAME.test(name)) return null;
  if (op === "delete") return { version: 1, op, name, updatedAt };
  if (op === "write" && typeof content === "string") return { version: 1, op, name, content, updatedAt };
  return null;
}

/** Pages visible on `branch`. Malformed entries are skipped; they neither add nor hide pages. */
export function rebuildPages(branch: readonly SessionEntry[]): Map<string, NotebookPage> {
  const pages = new Map<string, NotebookPage>();
  const decided = new Set<string>();
  for (const data of customDataNewestFirst(branch, NOTEBOOK_ENTRY_TYPE)) {
    const entry = parseNotebookEntry(data);
    if (!entry) continue;
    if (entry.op === "clear") break;
    if (decided.has(entry.name)) continue;
    decided.add(entry.name);
    if (entry.op === "write")
      pages.set(entry.name, { name: entry.name, content: entry.content, updatedAt: entry.updatedAt });
  }
  return pages;
}

/** Why a page cannot be written, or undefined when it can. */
export function pageProblem(name: string, content: string): string | undefined {
  if (!PAGE_NAME.test(name)) {
    return `Notebook page names are 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit (got ${JSON.stringify(name)}).`;
  }
  if (content.trim().length === 0) return `Notebook page ${name} would be empty; use delete to remove a page.`;
  if (content.length > MAX_PAGE_CHARS) {
    return `Notebook page ${name} is ${content.length} characters; the limit is ${MAX_PAGE_CHARS}.`;
  }
  return undefined;
}

/** The index the model sees: one line per page, names sorted, with the page's first line as a hint. */
export function renderIndex(pages: ReadonlyMap<string, NotebookPage>): string | undefined {
  if (pages.size === 0) return undefined;
  const lines = [...pages.values()]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((page) => `- ${page.name}: ${firstLine(page.content, 80)} (${page.content.length} chars)`);
  return [
    "Notebook pages for the current task (read one with the notebook_read tool; save durable decisions with notebook_write):",
    ...lines,
  ].join("\n");
}

/** A page's first non-blank line, cut to `max` characters. */
export function firstLine(content: string, max: number): string {
  const line =
    content
      .split("\n")
      .find((candidate) => candidate.trim().length > 0)
      ?.trim() ?? "";
  return line.length > max ? `${line.slice(0, max - 3)}...` : line;
}
