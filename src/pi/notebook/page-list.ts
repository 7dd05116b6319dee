/**
 * What `/notebook` and `/notebook list` show a person (pure): each page with its first line, size and age, and the
 * subcommands in one line. The model gets its own index in the system prompt (pages.ts `renderIndex`), worded for it.
 */
import { plural } from "../../common/plural.ts";
import { sizeLabel } from "../../common/size-label.ts";
import { firstLine, type NotebookPage } from "./pages.ts";

export const NOTEBOOK_HINT =
  "/notebook show <page> · write <page> <text> · append <page> <text> · delete <page> · clear";

export const EMPTY_NOTEBOOK =
  "The notebook is empty. Write a page with /notebook write <page> <text> (the model can save pages too).";

const SUMMARY_CHARS = 60;

export function renderPageList(pages: ReadonlyMap<string, NotebookPage>, now: number): string {
  if (pages.size === 0) return EMPTY_NOTEBOOK;
  const sorted = [...pages.values()].sort((a, b) => a.name.localeCompare(b.name));
  const nameWidth = Math.max(...sorted.map((page) => page.name.length));
  const rows = sorted.map((page) => {
    const summary = firstLine(page.content, SUMMARY_CHARS);
    const facts = `${sizeLabel(page.content.length)} · ${age(now - page.updatedAt)}`;
    return `  ${page.name.padEnd(nameWidth)}  ${summary}  (${facts})`;
  });
  return [`Notebook: ${plural(pages.size, "page")}`, ...rows, NOTEBOOK_HINT].join("\n");
}

/** How long ago, in the coarsest unit that is still informative. */
export function age(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return "updated just now";
  if (minutes < 60) return `updated ${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `updated ${hours} h ago`;
  return `updated ${plural(Math.floor(hours / 24), "day")} ago`;
}
