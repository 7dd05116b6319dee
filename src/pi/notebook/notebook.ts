/**
 * `/notebook` and the notebook tools. Pages are task-scoped: they live on the session branch, so `/new` (and each
 * sequence iteration) starts with an empty notebook, while `/handoff` copies the pages into the next session.
 */

import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { plural } from "../../common/plural.ts";
import type { CairnState } from "../state.ts";
import { renderPageList } from "./page-list.ts";
import {
  NOTEBOOK_ENTRY_TYPE,
  type NotebookEntry,
  type NotebookPage,
  PAGE_NAME,
  pageProblem,
  renderIndex,
} from "./pages.ts";

const PROMPT_SECTION = "cairn_notebook";

export const NOTEBOOK_USAGE =
  "Usage: /notebook [list] | /notebook show <page> | /notebook write <page> <text> | /notebook append <page> <text> | /notebook delete <page> | /notebook clear [--yes]";

export type NotebookCommand =
  | { op: "list" }
  | { op: "show"; name: string }
  | { op: "write"; name: string; content: string }
  | { op: "append"; name: string; content: string }
  | { op: "delete"; name: string }
  | { op: "clear"; yes: boolean }
  | { op: "invalid"; message: string };

/** Parse `/notebook` arguments (pure). A bare page name shows that page. */
export function parseNotebookCommand(args: string): NotebookCommand {
  const text = args.trim();
  if (text.length === 0) return { op: "list" };
  const [verb = "", rest = ""] = splitFirst(text);
  switch (verb) {
    case "list":
      return rest ? invalid() : { op: "list" };
    case "clear":
      return rest && rest !== "--yes" ? invalid() : { op: "clear", yes: rest === "--yes" };
    case "show":
    case "delete":
      return rest && !/\s/.test(rest) ? { op: verb, name: rest } : invalid();
    case "write":
    case "append": {
      const [name = "", content = ""] = splitFirst(rest);
      return name && content ? { op: verb, name, content } : invalid();
    }
    default:
      return PAGE_NAME.test(verb) && !rest ? { op: "show", name: verb } : invalid();
  }
}

export type NotebookCommandResult = { ok: true; page?: NotebookPage } | { ok: false; message: string };

export interface NotebookCommandOptions {
  /**
   * Ask before `clear` deletes pages (unless `--yes` was given). The slash command asks; the sequence runner does not,
   * because the user typed the recorded `/notebook clear` step on purpose and confirmed the whole sequence.
   */
  confirmClear?: boolean;
}

/** Run one `/notebook` command against the current branch. Shared by the slash command and the sequence runner. */
export async function runNotebookCommand(
  ctx: ExtensionContext,
  state: CairnState,
  args: string,
  options: NotebookCommandOptions = {},
): Promise<NotebookCommandResult> {
  const command = parseNotebookCommand(args);
  const pages = state.notebook.pages;
  switch (command.op) {
    case "invalid":
      return fail(ctx, command.message);
    case "list": {
      ctx.ui.notify(renderPageList(pages, state.services.now()), "info");
      return { ok: true };
    }
    case "show": {
      const page = pages.get(command.name);
      if (!page) return fail(ctx, `No notebook page named ${command.name}.`);
      ctx.ui.notify(`Notebook page ${page.name}:\n${page.content}`, "info");
      return { ok: true, page };
    }
    case "write":
    case "append": {
      const previous = pages.get(command.name)?.content;
      const content = command.op === "append" && previous ? `${previous}\n${command.content}` : command.content;
      const problem = pageProblem(command.name, content);
      if (problem) return fail(ctx, problem);
      const page = savePage(state, command.name, content);
      ctx.ui.notify(`Notebook page ${page.name} saved (${page.content.length} chars).`, "info");
      return { ok: true, page };
    }
    case "delete": {
      if (!pages.has(command.name)) return fail(ctx, `No notebook page named ${command.name}.`);
      record(state, { version: 1, op: "delete", name: command.name, updatedAt: state.services.now() });
      pages.delete(command.name);
      ctx.ui.notify(`Notebook page ${command.name} deleted.`, "info");
      return { ok: true };
    }
    case "clear":
      return clearNotebook(ctx, state, command.yes || !options.confirmClear);
  }
}

/** Delete every page, asking first unless `confirmed`; without a UI to ask in, refuse and say what works instead. */
async function clearNotebook(
  ctx: ExtensionContext,
  state: CairnState,
  confirmed: boolean,
): Promise<NotebookCommandResult> {
  const pages = state.notebook.pages;
  if (pages.size === 0) {
    ctx.ui.notify("The notebook is already empty.", "info");
    return { ok: true };
  }
  const count = plural(pages.size, "page");
  const names = [...pages.keys()].sort().join(", ");
  if (!confirmed && !ctx.hasUI) {
    return fail(
      ctx,
      `/notebook clear would delete ${count} (${names}) and there is no UI to confirm it. Run /notebook clear --yes to delete them all, or /notebook delete <page> to delete one page at a time.`,
    );
  }
  if (!confirmed && !(await ctx.ui.confirm(`Clear the notebook: delete ${count}?`, `Pages: ${names}.`))) {
    ctx.ui.notify("Notebook not cleared; no page was deleted.", "info");
    return { ok: true };
  }
  record(state, { version: 1, op: "clear", updatedAt: state.services.now() });
  pages.clear();
  ctx.ui.notify(`Notebook cleared: ${count} deleted.`, "info");
  return { ok: true };
}

/** Persist a page as an entry on the branch and update the cache. */
export function savePage(state: CairnState, name: string, content: string): NotebookPage {
  const page: NotebookPage = { name, content, updatedAt: state.services.now() };
  record(state, { version: 1, op: "write", name, content, updatedAt: page.updatedAt });
  state.notebook.pages.set(name, page);
  return page;
}

export function registerNotebook(pi: ExtensionAPI, state: CairnState): void {
  const { Type } = state.services.host;
  pi.registerCommand("notebook", {
    description: "Task notebook: list, show, write, append, delete or clear named pages",
    handler: async (args, ctx) => {
      await runNotebookCommand(ctx, state, args, { confirmClear: true });
    },
  });

  pi.registerTool({
    name: "notebook_read",
    label: "Notebook read",
    description: "Read a page of the task notebook. The system prompt lists the pages that exist.",
    promptSnippet: "Read a page of the task notebook",
    parameters: Type.Object({ name: Type.String({ description: "Page name from the notebook index" }) }),
    async execute(_id, params) {
      const page = state.notebook.pages.get(params.name);
      if (!page) throw new Error(`No notebook page named ${params.name}. Pages: ${pageNames(state)}.`);
      return { content: [{ type: "text", text: page.content }], details: { name: page.name } };
    },
  });

  pi.registerTool({
    name: "notebook_write",
    label: "Notebook write",
    description:
      "Save or replace a page of the task notebook: durable decisions, constraints and findings that must survive a handoff. Pages are short; keep one topic per page.",
    promptSnippet: "Save a decision or finding to the task notebook",
    executionMode: "sequential",
    parameters: Type.Object({
      name: Type.String({ description: "Page name: letters, digits, '.', '_' or '-'" }),
      content: Type.String({ description: "Full page content (replaces the page)" }),
    }),
    async execute(_id, params) {
      const problem = pageProblem(params.name, params.content);
      if (problem) throw new Error(problem);
      const page = savePage(state, params.name, params.content);
      return { content: [{ type: "text", text: `Saved notebook page ${page.name}.` }], details: { name: page.name } };
    },
  });

  pi.on("before_agent_start", (event) => {
    const index = renderIndex(state.notebook.pages);
    if (index) event.systemPromptOptions.sections[PROMPT_SECTION] = index;
    else delete event.systemPromptOptions.sections[PROMPT_SECTION];
    return undefined;
  });
}

function record(state: CairnState, entry: NotebookEntry): void {
  state.api.appendEntry(NOTEBOOK_ENTRY_TYPE, entry);
}

function pageNames(state: CairnState): string {
  const names = [...state.notebook.pages.keys()].sort();
  return names.length > 0 ? names.join(", ") : "none";
}

function fail(ctx: ExtensionContext, message: string): NotebookCommandResult {
  ctx.ui.notify(message, "error");
  return { ok: false, message };
}

function invalid(): NotebookCommand {
  return { op: "invalid", message: NOTEBOOK_USAGE };
}

function splitFirst(text: string): [string, string] {
  const match = /^(\S+)(?:\s+([\s\S]*))?$/.exec(text);
  return [match?.[1] ?? "", (match?.[2] ?? "").trim()];
}
