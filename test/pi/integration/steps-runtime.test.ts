/**
 * Each kind of step on pi's real runtime: skills, /compact, /readonly, /handoff, and a step that stops resolving
 * between iterations.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fauxAssistantMessage, fauxToolCall } from "@earendil-works/pi-ai";
import { SessionManager } from "@earendil-works/pi-coding-agent";
import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { createCairnExtension } from "../../../src/pi/extension.ts";
import type { HandoffBriefSource } from "../../../src/pi/handoff/brief-source.ts";
import { HANDOFF_MESSAGE_TYPE } from "../../../src/pi/handoff/handoff.ts";
import { SEQUENCE_RUN_TYPE, type SequenceRunEntry } from "../../../src/pi/sequence/run-records.ts";
import { KEYS, mountEditor, type } from "../helpers/editor-host.ts";
import { piHost } from "../helpers/pi-host.ts";
import { createRuntimeHarness, type RuntimeHarness } from "../helpers/runtime.ts";

let harness: RuntimeHarness | undefined;
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
  vi.unstubAllEnvs();
});

/** Record `steps` through the recorder and answer the run count; resolves when the run is over. */
async function recordAndRun(current: RuntimeHarness, steps: string[], runs: number, args = ""): Promise<void> {
  const { ui } = current;
  ui.answers.input.push(String(runs));
  const finished = current.session.prompt(`/sequence ${args}`.trim());
  await ui.until(() => ui.editorFactory !== undefined, "the recorder");
  if (!ui.editorFactory) throw new Error("the recorder is not active");
  const editor = mountEditor(ui.editorFactory);
  for (const step of steps) {
    type(editor, step);
    editor.handleInput(KEYS.enter);
  }
  editor.handleInput(KEYS.ctrlEnterKitty);
  await finished;
}

function cairn(options: Parameters<typeof createCairnExtension>[1] = {}) {
  return { name: "cairn", factory: createCairnExtension(piHost, { sandbox: () => ({ kind: "none" }), ...options }) };
}

describe("sequence steps on the real pi runtime", () => {
  it("expands a skill from its SKILL.md and compacts through ctx.compact()", async () => {
    const home = mkdtempSync(join(tmpdir(), "cairn-home-"));
    onTestFinished(() => rmSync(home, { recursive: true, force: true }));
    vi.stubEnv("HOME", home);
    harness = await createRuntimeHarness({
      extensions: [cairn()],
      skills: true,
      files: {
        ".pi/skills/greet/SKILL.md":
          "---\nname: greet\ndescription: Greets people. Use when asked to greet.\n---\nGreet the person warmly.",
      },
    });
    await recordAndRun(harness, ["/skill:greet $1", "/compact keep the names"], 1, "Ada");

    expect(harness.errors).toEqual([]);
    const branch = harness.session.sessionManager.getBranch();
    const userTexts = branch.flatMap((entry) =>
      entry.type === "message" && entry.message.role === "user" && typeof entry.message.content !== "string"
        ? entry.message.content.map((part) => (part.type === "text" ? part.text : ""))
        : [],
    );
    expect(userTexts[0]).toMatch(
      /^<skill name="greet" location="[^"]+\/\.pi\/skills\/greet\/SKILL\.md">\nReferences are relative to [^\n]+greet\.\n\nGreet the person warmly\.\n<\/skill>\n\nAda$/,
    );
    expect(branch.filter((entry) => entry.type === "compaction")).toHaveLength(1);
    expect(harness.ui.notifications.at(-1)).toEqual({ message: "Sequence finished: 1 run of 2 steps.", type: "info" });
  });

  it("a /readonly step runs the command as typed: plain /readonly toggles, /readonly on sets, and writes are blocked", async () => {
    harness = await createRuntimeHarness({
      extensions: [cairn()],
      tools: ["read", "write"],
      respond: (prompt, messages) => {
        if (prompt !== "Create notes.md") return undefined;
        if (messages.at(-1)?.role === "toolResult") return fauxAssistantMessage("I could not write it.");
        return fauxAssistantMessage([fauxToolCall("write", { path: "notes.md", content: "x" }, { id: "w1" })], {
          stopReason: "toolUse",
        });
      },
    });
    const { ui } = harness;
    await harness.session.prompt("/readonly");
    expect(ui.statuses.get("cairn-readonly")).toBe("🔒 readonly");

    // Steps are kept and shown as typed; plain /readonly toggles (here: off), as the slash command does.
    const before = ui.statusLog.length;
    await recordAndRun(harness, ["/readonly", "/readonly on", "Create notes.md"], 1);
    expect(ui.widgetLog.filter((lines) => lines[0] === "Sequence").at(-1)).toEqual([
      "Sequence",
      "1. /readonly",
      "2. /readonly on",
      "3. Create notes.md",
    ]);

    const result = harness.session.sessionManager
      .getBranch()
      .find((entry) => entry.type === "message" && entry.message.role === "toolResult");
    expect(result?.type === "message" && result.message.role === "toolResult" && result.message).toMatchObject({
      toolName: "write",
      isError: true,
      content: [{ type: "text", text: expect.stringContaining("Read-only mode is on: write is blocked") }],
    });
    expect(ui.statuses.get("cairn-readonly")).toBe("🔒 readonly");
    const readonlyChanges = ui.statusLog.slice(before).filter((change) => change.key === "cairn-readonly");
    expect(readonlyChanges.map((change) => change.text)).toEqual([undefined, "🔒 readonly"]);
    expect(harness.errors).toEqual([]);
  });

  it("aborts visibly before the next iteration when a step no longer resolves", async () => {
    harness = await createRuntimeHarness({
      extensions: [cairn()],
      files: { ".pi/prompts/check.md": "Check $@." },
    });
    const { ui } = harness;
    // Delete the template while run 1 is on its last step; run 2 starts in a new session that no longer has it.
    const removed = ui
      .until(() => ui.statuses.get("cairn-sequence")?.includes("run 1/2 · step 2/2") ?? false, "run 1, step 2")
      .then(() => rmSync(join(harness?.cwd ?? "", ".pi/prompts/check.md")));
    await recordAndRun(harness, ["/check it", "Then continue"], 2);
    await removed;

    expect(ui.notifications.at(-1)).toEqual({
      message:
        "Sequence aborted at run 2/2, step 1/2: step 1 can no longer run.\nUnsupported step: /check is not a known command.\nSequences can run prompts, /readonly, /handoff, /notebook, /compact, prompt templates and skills.",
      type: "error",
    });
    // Run 2 started in a fresh session and executed nothing.
    const messages = harness.session.sessionManager.getBranch().filter((entry) => entry.type === "message");
    expect(messages).toEqual([]);
    expect(ui.statuses.has("cairn-sequence")).toBe(false);
  });

  it("continues after a /handoff step in the handoff session, which keeps the notebook", async () => {
    const briefs: HandoffBriefSource = {
      buildBrief: async ({ direction }) => ({
        markdown: `- Goal: ${direction} [e:e1]`,
        citedEventIds: ["e1"],
      }),
    };
    harness = await createRuntimeHarness({ extensions: [cairn({ briefs })] });
    await harness.session.prompt("Start here");
    const firstFile = harness.session.sessionFile;
    await recordAndRun(
      harness,
      ["/notebook write plan keep this", "/handoff implement the plan", "After the handoff"],
      1,
    );

    expect(harness.errors).toEqual([]);
    expect(harness.session.sessionFile).not.toBe(firstFile);
    const next = SessionManager.open(harness.session.sessionFile as string);
    expect(next.getHeader()?.parentSession).toBe(firstFile);
    const shape = next.getBranch().flatMap((entry) => {
      if (entry.type === "custom" && entry.customType === SEQUENCE_RUN_TYPE) {
        const record = entry.data as SequenceRunEntry;
        return [`run:${record.phase} ${record.run.stepIndex + 1}`];
      }
      if (entry.type === "custom") return [`custom:${entry.customType}`];
      if (entry.type === "custom_message") return [`message:${entry.customType}`];
      if (entry.type === "message" && (entry.message.role === "user" || entry.message.role === "assistant")) {
        const content = entry.message.content;
        const text = typeof content === "string" ? content : content.map((p) => ("text" in p ? p.text : "")).join("");
        return [`${entry.message.role}:${text}`];
      }
      return [];
    });
    // Only plain run data crossed: the start record written with the brief, claimed by the new instance, which sends
    // the direction as the /handoff step and goes on from step 3.
    expect(shape).toEqual([
      "custom:cairn-notebook",
      "custom:cairn-sequence",
      "run:start 2",
      `message:${HANDOFF_MESSAGE_TYPE}`,
      "run:running 2",
      "user:implement the plan",
      "assistant:reply to: implement the plan",
      "run:running 3",
      "user:After the handoff",
      "assistant:reply to: After the handoff",
      "run:finished 4",
    ]);
    expect(harness.ui.notifications.at(-1)).toEqual({ message: "Sequence finished: 1 run of 3 steps.", type: "info" });
  });
});
