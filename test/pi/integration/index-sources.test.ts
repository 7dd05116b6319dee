/**
 * The extension's real sources on pi's real runtime: `/handoff` indexes the live pi session into a cairn database
 * and hands the next session a brief from the resume engine whose citations resolve in that database; the recall
 * source finds what the session said.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SessionManager } from "@earendil-works/pi-coding-agent";
import { afterEach, describe, expect, it } from "vitest";
import { createCairnExtension } from "../../../src/pi/extension.ts";
import { HANDOFF_MESSAGE_TYPE } from "../../../src/pi/handoff/handoff.ts";
import { lazyIndexSources } from "../../../src/pi/lazy-sources.ts";
import { openStore } from "../../../src/store/sqlite-store.ts";
import { createRuntimeHarness, type RuntimeHarness } from "../helpers/runtime.ts";

let harness: RuntimeHarness | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("index-backed handoff and recall", () => {
  it("/handoff briefs the live session from cairn's index, with citations that resolve there", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cairn-pi-sources-"));
    dirs.push(dir);
    const db = join(dir, "cairn.db");
    // No background run: it would index this machine's own agent folders into the test's database.
    const sources = lazyIndexSources({ dbPath: db, env: { HOME: dir }, background: false });
    harness = await createRuntimeHarness({
      extensions: [{ name: "cairn", factory: createCairnExtension({ sandbox: () => ({ kind: "none" }), ...sources }) }],
    });
    await harness.session.prompt("Make the tokenizer keep quoted strings intact; never touch the public API.");
    await harness.session.prompt("Also add a regression test for escaped quotes.");
    const first = harness.session.sessionFile as string;
    const firstId = harness.session.sessionManager.getSessionId();

    await harness.session.prompt("/handoff finish the escaped-quote test");

    expect(harness.errors).toEqual([]);
    expect(harness.session.sessionFile).not.toBe(first);
    const next = SessionManager.open(harness.session.sessionFile as string);
    const handoff = next.getBranch().find((e) => e.type === "custom_message" && e.customType === HANDOFF_MESSAGE_TYPE);
    if (handoff?.type !== "custom_message") throw new Error("no handoff message in the new session");
    const text = typeof handoff.content === "string" ? handoff.content : JSON.stringify(handoff.content);
    // The goal and the latest request come through verbatim, from the engine's ledger.
    expect(text).toContain("Make the tokenizer keep quoted strings intact; never touch the public API.");
    expect(text).toContain("Also add a regression test for escaped quotes.");
    const cited = (handoff.details as { citedEventIds: string[] }).citedEventIds;
    expect(cited.length).toBeGreaterThan(0);
    const store = openStore(db, { readonly: true });
    try {
      for (const id of cited) expect(store.getEvent(id)?.session_id, id).toBe(firstId);
    } finally {
      store.close();
    }

    const { hits } = await sources.recall.search({ query: "escaped quotes", limit: 5, cwd: harness.cwd });
    expect(hits[0]).toMatchObject({ sessionId: firstId, provider: "pi" });
    expect(cited.length + hits.length).toBeGreaterThan(1);
    const brief = await sources.recall.resumeBrief({ sessionId: firstId, cwd: harness.cwd });
    expect(brief.markdown).toContain("escaped quotes");
  });

  it("a search without an index creates it, so recall works before any 'cairn index'", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cairn-pi-sources-"));
    dirs.push(dir);
    const db = join(dir, "missing.db");
    const sources = lazyIndexSources({ dbPath: db, env: { HOME: dir }, background: false });
    await expect(sources.recall.search({ query: "x", limit: 1, cwd: dir })).resolves.toMatchObject({ hits: [] });
    expect(existsSync(db)).toBe(true);
  });
});
