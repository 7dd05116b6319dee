/**
 * The agent's recall tools on a fresh machine, on pi's real runtime: a new HOME with no cairn index at all. The
 * first call creates the index from the current session, and the agents' own folders (here a Claude Code
 * transcript written by its real CLI) arrive in the background.
 */
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fauxAssistantMessage, fauxToolCall, type Message } from "@earendil-works/pi-ai";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createCairn } from "../../../src/app/cairn.ts";
import { createCairnExtension } from "../../../src/pi/extension.ts";
import { createIndexSources, type IndexSources } from "../../../src/pi/index-sources.ts";
import { piHost } from "../helpers/pi-host.ts";
import { createRuntimeHarness, type RuntimeHarness } from "../helpers/runtime.ts";

const CLAUDE_HOME = join(import.meta.dirname, "../../fixtures/clients/claude/2.1.332/home");

let harness: RuntimeHarness | undefined;
let sources: IndexSources | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await sources?.close();
  sources = undefined;
  await harness?.dispose();
  harness = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A HOME holding one Claude Code session and no cairn index; the default database goes under it. */
function freshHome(): { home: string; db: string } {
  const home = mkdtempSync(join(tmpdir(), "cairn-pi-home-"));
  dirs.push(home);
  cpSync(CLAUDE_HOME, home, { recursive: true });
  return { home, db: join(home, ".local/share/cairn/cairn.db") };
}

/** The model calls `tool` with `args` when asked `question`, then answers in words. */
function callsTool(question: string, tool: string, args: Parameters<typeof fauxToolCall>[1]) {
  return (prompt: string, messages: readonly Message[]) => {
    if (prompt !== question) return undefined;
    if (messages.at(-1)?.role === "toolResult") return fauxAssistantMessage("Here is what I found.");
    return fauxAssistantMessage([fauxToolCall(tool, args, { id: "t1" })], { stopReason: "toolUse" });
  };
}

/** The text of the last result `tool` returned in the current session. */
function lastToolResult(current: RuntimeHarness, tool: string): { text: string; isError: boolean } {
  for (const entry of [...current.session.sessionManager.getBranch()].reverse()) {
    if (entry.type !== "message" || entry.message.role !== "toolResult" || entry.message.toolName !== tool) continue;
    const text = entry.message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
    return { text, isError: entry.message.isError };
  }
  throw new Error(`no ${tool} result in the session`);
}

async function start(home: string, respond: ReturnType<typeof callsTool>): Promise<RuntimeHarness> {
  sources = createIndexSources({ env: { HOME: home } });
  const { briefs, recall } = sources;
  return createRuntimeHarness({
    extensions: [
      { name: "cairn", factory: createCairnExtension(piHost, { sandbox: () => ({ kind: "none" }), briefs, recall }) },
    ],
    tools: ["read", "cairn_search", "cairn_resume_brief"],
    respond,
  });
}

describe("recall tools on a fresh HOME with no index", () => {
  it("cairn_search creates the index, finds this session, then the agents' folders indexed in the background", async () => {
    const { home, db } = freshHome();
    const question = "What did we decide about the tokenizer?";
    harness = await start(home, callsTool(question, "cairn_search", { query: "tokenizer quoted strings" }));
    await harness.session.prompt("Make the tokenizer keep quoted strings intact.");
    expect(existsSync(db)).toBe(false);

    await harness.session.prompt(question);

    expect(harness.errors).toEqual([]);
    const first = lastToolResult(harness, "cairn_search");
    expect(first.isError).toBe(false);
    const sessionId = harness.session.sessionManager.getSessionId();
    expect(first.text).toMatch(/^\d+ hit\(s\) for "tokenizer quoted strings":/);
    expect(first.text).toContain(`pi session ${sessionId}`);
    expect(first.text).toContain("user_message: Make the «tokenizer» keep «quoted» «strings» intact.");
    expect(first.text).toContain("(cairn is indexing your agents' transcripts in the background");
    expect(existsSync(db)).toBe(true);

    // The Claude Code session under HOME arrives through the background run, with no `cairn index`.
    await vi.waitFor(() => expect(sources?.recall.status?.()).toBeUndefined(), { timeout: 60_000, interval: 50 });
    const app = createCairn({ db, env: { HOME: home } });
    try {
      const cli = await app.search({ query: "TASK-A node test.js fails", limit: 5 });
      expect(cli.hits.some((hit) => hit.provider === "claude")).toBe(true);
      const result = await sources?.recall.search({ query: "TASK-A node test.js fails", limit: 5, cwd: harness.cwd });
      // The same hits `cairn search` returns for this index, judged by the same embedder.
      expect(result?.hits.map((hit) => hit.eventId)).toEqual(cli.hits.map((hit) => hit.event_id));
      expect(result?.meaningBy).toBe(cli.meaning_by);
    } finally {
      app.close();
    }
  });

  it("cairn_resume_brief briefs the current session with nothing indexed before", async () => {
    const { home, db } = freshHome();
    const question = "Where were we?";
    harness = await start(home, callsTool(question, "cairn_resume_brief", {}));
    await harness.session.prompt("Add a regression test for escaped quotes in the tokenizer.");

    await harness.session.prompt(question);

    expect(harness.errors).toEqual([]);
    const result = lastToolResult(harness, "cairn_resume_brief");
    expect(result.isError).toBe(false);
    expect(result.text).toContain("Add a regression test for escaped quotes in the tokenizer.");
    expect(result.text).toMatch(/\[e:[0-9a-f]+\]/);
    expect(existsSync(db)).toBe(true);
  });
});
