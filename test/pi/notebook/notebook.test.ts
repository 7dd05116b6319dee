import { SessionManager } from "@earendil-works/pi-coding-agent";
import { describe, expect, it } from "vitest";
import {
  NOTEBOOK_USAGE,
  parseNotebookCommand,
  registerNotebook,
  runNotebookCommand,
} from "../../../src/pi/notebook/notebook.ts";
import { EMPTY_NOTEBOOK, NOTEBOOK_HINT, renderPageList } from "../../../src/pi/notebook/page-list.ts";
import { NOTEBOOK_ENTRY_TYPE, rebuildPages, renderIndex } from "../../../src/pi/notebook/pages.ts";
import { rehydrateState } from "../../../src/pi/state.ts";
import { createFakeContext } from "../helpers/fake-pi.ts";
import { createTestState } from "../helpers/test-state.ts";

const write = (name: string, content: string, updatedAt = 1) => ({ version: 1, op: "write", name, content, updatedAt });

describe("notebook pages on the branch", () => {
  it("newest entry per page wins; deletes hide older writes; clear hides everything older", () => {
    const session = SessionManager.inMemory("/p");
    for (const data of [
      write("plan", "v1"),
      write("gone", "bye"),
      write("plan", "v2"),
      { version: 1, op: "delete", name: "gone", updatedAt: 2 },
      { version: 1, op: "write", name: "plan" }, // malformed: no content
      "garbage",
      write("Bad Name", "x"),
    ]) {
      session.appendCustomEntry(NOTEBOOK_ENTRY_TYPE, data);
    }
    expect([...rebuildPages(session.getBranch()).values()]).toEqual([{ name: "plan", content: "v2", updatedAt: 1 }]);

    session.appendCustomEntry(NOTEBOOK_ENTRY_TYPE, { version: 1, op: "clear", updatedAt: 3 });
    session.appendCustomEntry(NOTEBOOK_ENTRY_TYPE, write("after", "fresh"));
    expect([...rebuildPages(session.getBranch()).keys()]).toEqual(["after"]);
  });

  it("follows the branch", () => {
    const session = SessionManager.inMemory("/p");
    session.appendCustomEntry(NOTEBOOK_ENTRY_TYPE, write("shared", "base"));
    const fork = session.getLeafId();
    session.appendCustomEntry(NOTEBOOK_ENTRY_TYPE, write("later", "only on the first branch"));
    if (!fork) throw new Error("expected a leaf");
    session.branch(fork);
    session.appendCustomEntry("other", {});
    expect([...rebuildPages(session.getBranch()).keys()]).toEqual(["shared"]);
  });

  it("offers the model an index, not the pages", () => {
    const pages = new Map([
      ["zeta", { name: "zeta", content: "\nLast page\nmore", updatedAt: 1 }],
      ["alpha", { name: "alpha", content: "First line", updatedAt: 2 }],
    ]);
    expect(renderIndex(pages)).toBe(
      "Notebook pages for the current task (read one with the notebook_read tool; save durable decisions with notebook_write):\n- alpha: First line (10 chars)\n- zeta: Last page (15 chars)",
    );
    expect(renderIndex(new Map())).toBeUndefined();
  });
});

describe("parseNotebookCommand", () => {
  it.each([
    ["", { op: "list" }],
    ["list", { op: "list" }],
    ["plan", { op: "show", name: "plan" }],
    ["show plan", { op: "show", name: "plan" }],
    ["write plan Step one\nStep two", { op: "write", name: "plan", content: "Step one\nStep two" }],
    ["append plan more", { op: "append", name: "plan", content: "more" }],
    ["delete plan", { op: "delete", name: "plan" }],
    ["clear", { op: "clear", yes: false }],
    ["clear --yes", { op: "clear", yes: true }],
    ["write plan", { op: "invalid", message: NOTEBOOK_USAGE }],
    ["clear now", { op: "invalid", message: NOTEBOOK_USAGE }],
    ["what is this", { op: "invalid", message: NOTEBOOK_USAGE }],
  ])("%j", (args, expected) => {
    expect(parseNotebookCommand(args)).toEqual(expected);
  });
});

describe("runNotebookCommand", () => {
  it("writes, appends, shows, deletes and clears pages, persisting each change on the branch", async () => {
    const session = SessionManager.inMemory("/p");
    const setup = createTestState({ session });
    const { ctx, ui } = createFakeContext({ session });
    const run = (args: string) => runNotebookCommand(ctx, setup.state, args);

    expect(await run("write plan First draft")).toMatchObject({
      ok: true,
      page: { name: "plan", content: "First draft" },
    });
    expect(await run("append plan Second line")).toMatchObject({ page: { content: "First draft\nSecond line" } });
    expect(await run("show plan")).toMatchObject({ ok: true });
    expect(ui.notifications.at(-1)).toEqual({ message: "Notebook page plan:\nFirst draft\nSecond line", type: "info" });
    await run("write scratch temp");
    await run("delete scratch");
    expect([...rebuildPages(session.getBranch()).values()]).toEqual([...setup.state.notebook.pages.values()]);
    expect([...setup.state.notebook.pages.keys()]).toEqual(["plan"]);

    await run("clear");
    expect(setup.state.notebook.pages.size).toBe(0);
    expect(rebuildPages(session.getBranch()).size).toBe(0);
  });

  it("fails visibly and writes nothing for bad input", async () => {
    const setup = createTestState();
    const { ctx, ui } = createFakeContext();
    expect(await runNotebookCommand(ctx, setup.state, "show missing")).toEqual({
      ok: false,
      message: "No notebook page named missing.",
    });
    expect(await runNotebookCommand(ctx, setup.state, "nonsense words here")).toEqual({
      ok: false,
      message: NOTEBOOK_USAGE,
    });
    expect(await runNotebookCommand(ctx, setup.state, "write x.y-z_1 ok")).toMatchObject({ ok: true });
    expect(await runNotebookCommand(ctx, setup.state, `write big ${"x".repeat(20_001)}`)).toMatchObject({ ok: false });
    expect(ui.notifications.filter((n) => n.type === "error")).toHaveLength(3);
    expect(setup.pi.entries).toHaveLength(1);
  });

  it("the slash command, the tools and rehydration share one notebook", async () => {
    const session = SessionManager.inMemory("/p");
    const setup = createTestState({ session });
    registerNotebook(setup.pi.api, setup.state);
    const { ctx } = createFakeContext({ session });

    await setup.pi.runCommand("notebook", "write decisions Use SQLite", ctx);
    const read = await setup.pi.tools.get("notebook_read")?.run({ name: "decisions" }, ctx);
    expect(read?.content).toEqual([{ type: "text", text: "Use SQLite" }]);
    await setup.pi.tools.get("notebook_write")?.run({ name: "constraints", content: "No network" }, ctx);
    await expect(setup.pi.tools.get("notebook_read")?.run({ name: "nope" }, ctx)).rejects.toThrow(
      "No notebook page named nope. Pages: constraints, decisions.",
    );

    setup.state.notebook.pages.clear();
    rehydrateState(setup.state, session.getBranch());
    expect([...setup.state.notebook.pages.keys()].sort()).toEqual(["constraints", "decisions"]);

    const sections: Record<string, string> = {};
    await setup.pi.emit("before_agent_start", { type: "before_agent_start", systemPromptOptions: { sections } }, ctx);
    expect(sections["cairn_notebook"]).toContain("- decisions: Use SQLite");
  });
});

describe("/notebook clear asks first", () => {
  async function withPages(options: { hasUI?: boolean } = {}) {
    const session = SessionManager.inMemory("/p");
    const setup = createTestState({ session });
    registerNotebook(setup.pi.api, setup.state);
    const fake = createFakeContext({ session, ...options });
    await runNotebookCommand(fake.ctx, setup.state, "write plan Use SQLite");
    await runNotebookCommand(fake.ctx, setup.state, "write risks None yet");
    const written = setup.pi.entries.length;
    const newEntries = () => setup.pi.entries.slice(written);
    return { setup, ...fake, newEntries };
  }

  it("says how many pages go; cancelling changes nothing", async () => {
    const { setup, session, ctx, ui, newEntries } = await withPages();
    ui.answers.confirm.push(false);
    await setup.pi.runCommand("notebook", "clear", ctx);
    expect(ui.asked).toEqual([{ kind: "confirm", title: "Clear the notebook: delete 2 pages?" }]);
    expect(newEntries()).toEqual([]);
    expect([...rebuildPages(session.getBranch()).keys()].sort()).toEqual(["plan", "risks"]);
    expect(ui.notifications.at(-1)?.message).toBe("Notebook not cleared; no page was deleted.");
  });

  it("deletes every page once confirmed", async () => {
    const { setup, session, ctx, ui } = await withPages();
    ui.answers.confirm.push(true);
    await setup.pi.runCommand("notebook", "clear", ctx);
    expect(rebuildPages(session.getBranch()).size).toBe(0);
    expect(setup.state.notebook.pages.size).toBe(0);
    expect(ui.notifications.at(-1)?.message).toBe("Notebook cleared: 2 pages deleted.");
  });

  it("without a UI refuses and says how to delete, unless --yes says so", async () => {
    const { setup, session, ctx, ui, newEntries } = await withPages({ hasUI: false });
    await setup.pi.runCommand("notebook", "clear", ctx);
    expect(ui.asked).toEqual([]);
    expect(newEntries()).toEqual([]);
    expect(ui.notifications.at(-1)).toEqual({
      type: "error",
      message:
        "/notebook clear would delete 2 pages (plan, risks) and there is no UI to confirm it. Run /notebook clear --yes to delete them all, or /notebook delete <page> to delete one page at a time.",
    });
    await setup.pi.runCommand("notebook", "clear --yes", ctx);
    expect(rebuildPages(session.getBranch()).size).toBe(0);
  });

  it("a recorded sequence step (the shared function without confirmClear) clears without asking", async () => {
    const { setup, ctx, ui } = await withPages();
    expect(await runNotebookCommand(ctx, setup.state, "clear")).toEqual({ ok: true });
    expect(ui.asked).toEqual([]);
    expect(setup.state.notebook.pages.size).toBe(0);
  });

  it("an empty notebook needs no confirmation and records nothing", async () => {
    const setup = createTestState();
    registerNotebook(setup.pi.api, setup.state);
    const { ctx, ui } = createFakeContext();
    await setup.pi.runCommand("notebook", "clear", ctx);
    expect(ui.asked).toEqual([]);
    expect(setup.pi.entries).toEqual([]);
    expect(ui.notifications.at(-1)?.message).toBe("The notebook is already empty.");
  });
});

describe("/notebook list is for people", () => {
  const minute = 60_000;
  const page = (name: string, content: string, updatedAt: number) => [name, { name, content, updatedAt }] as const;

  it("shows each page's first line, size and age, and the subcommands, not the model's instructions", () => {
    const now = 10 * 24 * 60 * minute;
    const pages = new Map([
      page("risks", `\n${"Flaky network tests on CI. ".repeat(4)}\nmore`, now - 30_000),
      page("plan", "# Use SQLite for the store\nthen the indexer", now - 5 * minute),
      page("decisions-2024", "x".repeat(4_200), now - 3 * 24 * 60 * minute),
    ]);
    expect(renderPageList(pages, now)).toBe(
      [
        "Notebook: 3 pages",
        "  decisions-2024  xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...  (4.2 kB · updated 3 days ago)",
        "  plan            # Use SQLite for the store  (43 chars · updated 5 min ago)",
        "  risks           Flaky network tests on CI. Flaky network tests on CI. Fla...  (114 chars · updated just now)",
        NOTEBOOK_HINT,
      ].join("\n"),
    );
    expect(renderPageList(pages, now)).not.toContain("notebook_read");
  });

  it("says when the notebook is empty and how to write a page", async () => {
    expect(renderPageList(new Map(), 0)).toBe(EMPTY_NOTEBOOK);
    expect(EMPTY_NOTEBOOK).toContain("/notebook write <page> <text>");
  });

  it("is what /notebook and /notebook list print", async () => {
    const setup = createTestState();
    registerNotebook(setup.pi.api, setup.state);
    const { ctx, ui } = createFakeContext();
    await setup.pi.runCommand("notebook", "", ctx);
    expect(ui.notifications.at(-1)).toEqual({ message: EMPTY_NOTEBOOK, type: "info" });
    await setup.pi.runCommand("notebook", "write plan Use SQLite", ctx);
    await setup.pi.runCommand("notebook", "list", ctx);
    expect(ui.notifications.at(-1)?.message).toBe(
      `Notebook: 1 page\n  plan  Use SQLite  (10 chars · updated just now)\n${NOTEBOOK_HINT}`,
    );
  });
});
