/**
 * The extension's real sources on pi's real runtime: `/handoff` indexes the live pi session into a cairn database
 * and hands the next session a brief from the resume engine whose citations resolve in that database; the recall
 * source finds what the session said.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fauxAssistantMessage, fauxToolCall, type Message } from "@earendil-works/pi-ai";
import { SessionManager } from "@earendil-works/pi-coding-agent";
import { afterEach, describe, expect, it } from "vitest";
import { createCairnExtension } from "../../../src/pi/extension.ts";
import { HANDOFF_MESSAGE_TYPE } from "../../../src/pi/handoff/handoff.ts";
import { lazyIndexSources } from "../../../src/pi/lazy-sources.ts";
import { resolveEventId } from "../../../src/store/resolve.ts";
import { openStore } from "../../../src/store/sqlite/store.ts";
import { piHost } from "../helpers/pi-host.ts";
import { createRuntimeHarness, type RuntimeHarness } from "../helpers/runtime.ts";

let harness: RuntimeHarness | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The text of the handoff message the current session opened with. */
function handoffText(current: RuntimeHarness): string {
  const next = SessionManager.open(current.session.sessionFile as string);
  const handoff = next.getBranch().find((e) => e.type === "custom_message" && e.customType === HANDOFF_MESSAGE_TYPE);
  if (handoff?.type !== "custom_message") throw new Error("no handoff message in the session");
  return typeof handoff.content === "string" ? handoff.content : JSON.stringify(handoff.content);
}

/** The model answers these prompts with one tool call, then with "Done." */
const CALLS: Record<string, [string, Record<string, string>]> = {
  "Note the plan in the notebook.": [
    "notebook_write",
    { name: "plan", content: "Quote tokens first, then escapes.\nThe lexer keeps a state per quote." },
  ],
  "Run the quoted-string test.": ["bash", { command: "node -e 'process.exit(3)' -- --run -t quoted --bail=1" }],
  "Run the escape test.": ["bash", { command: "node -e 'process.exit(0)' -- --run -t escapes" }],
};
function toolCalls(prompt: string, messages: readonly Message[]) {
  const call = CALLS[prompt];
  if (!call) return undefined;
  if (messages.at(-1)?.role === "toolResult") return fauxAssistantMessage("Done.");
  return fauxAssistantMessage([fauxToolCall(call[0], call[1], { id: `t${messages.length}` })], {
    stopReason: "toolUse",
  });
}

describe("index-backed handoff and recall", () => {
  it("/handoff briefs the live session from cairn's index, with citations that resolve there", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cairn-pi-sources-"));
    dirs.push(dir);
    const db = join(dir, "cairn.db");
    // No background run: it would index this machine's own agent folders into the test's database.
    const sources = lazyIndexSources({ dbPath: db, env: { HOME: dir }, background: false });
    harness = await createRuntimeHarness({
      extensions: [
        { name: "cairn", factory: createCairnExtension(piHost, { sandbox: () => ({ kind: "none" }), ...sources }) },
      ],
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

  it("a chained /handoff: the notebook is the notebook, the second brief says what changed since the first, commands verbatim", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cairn-pi-sources-"));
    dirs.push(dir);
    const sources = lazyIndexSources({ dbPath: join(dir, "cairn.db"), env: { HOME: dir }, background: false });
    harness = await createRuntimeHarness({
      extensions: [
        { name: "cairn", factory: createCairnExtension(piHost, { sandbox: () => ({ kind: "none" }), ...sources }) },
      ],
      tools: ["read", "bash", "notebook_write"],
      respond: toolCalls,
    });
    await harness.session.prompt("Make the tokenizer keep quoted strings intact; never touch the public API.");
    await harness.session.prompt("Note the plan in the notebook.");
    await harness.session.prompt("Run the quoted-string test.");
    const firstId = harness.session.sessionManager.getSessionId();
    await harness.session.prompt("/handoff fix the quoted-string test");
    const firstBrief = handoffText(harness);
    expect(firstBrief).toContain("`node -e 'process.exit(3)' -- --run -t quoted --bail=1`");

    await harness.session.prompt("Run the escape test.");
    await harness.session.prompt("Use a state machine for escapes, not regexes.");
    const secondId = harness.session.sessionManager.getSessionId();
    await harness.session.prompt("/handoff finish the escape handling");

    expect(harness.errors).toEqual([]);
    const brief = handoffText(harness);
    // The notebook: one section, the page's name and first line, cited; not a turn, a request or a decision.
    expect(brief).toMatch(
      /### Notebook \(each page's first line\)\n- plan: Quote tokens first, then escapes\. \[e:[0-9a-f]+\]/,
    );
    expect(brief.match(/Quote tokens first/g)).toHaveLength(1);
    expect(brief).not.toMatch(/user \(turn \d+\):\n\s+plan|settled: plan/);
    // The first brief is named in one cited line, not repeated; what follows is what happened since.
    expect(brief).toMatch(
      new RegExp(
        `\\*\\*Since the handoff\\*\\* @\\d+: this session began from a brief of session ${firstId}, .*\\[e:[0-9a-f]+\\]`,
      ),
    );
    expect(brief.match(/# Resume brief/g)).toHaveLength(1);
    expect(brief).not.toContain("Make the tokenizer keep quoted strings intact");
    expect(brief).not.toContain("-t quoted");
    expect(brief).toMatch(/\*\*Goal\*\* \(turn 1\): \[e:[0-9a-f]+\]\n\s+fix the quoted-string test/);
    expect(brief).toMatch(
      /\*\*Latest request\*\* \(turn 3\): \[e:[0-9a-f]+\]\n\s+Use a state machine for escapes, not regexes\./,
    );
    expect(brief).toContain("**Commands run**: `node -e 'process.exit(0)' -- --run -t escapes` ×1");
    const store = openStore(join(dir, "cairn.db"), { readonly: true });
    try {
      // The line cites the carried brief in the session it opened, where `cairn show` prints it whole.
      const id = /\*\*Since the handoff\*\*.*\[e:([0-9a-f]+)\]/.exec(brief)![1]!;
      const carried = resolveEventId(store, id);
      expect([carried.session_id, carried.event_type, carried.text]).toEqual([secondId, "resume_point", firstBrief]);
    } finally {
      store.close();
    }
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
