/**
 * The pi driver against pi itself, offline: pi's faux provider plays the model, a temp dir is the agent dir.
 * A tool call must wait for a viewport's allow; a denied call must reach the model as an error result; the
 * session must land in an ordinary pi session file.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  fauxAssistantMessage,
  fauxProvider,
  fauxText,
  fauxToolCall,
  InMemoryCredentialStore,
  InMemoryModelsStore,
} from "@earendil-works/pi-ai";
import { ModelRuntime, SettingsManager } from "@earendil-works/pi-coding-agent";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createLiveController, type LiveController } from "../../src/live/controller.ts";
import { createPiDriver, piSessionDir } from "../../src/live/drivers/pi.ts";
import type { Envelope, PendingPrompt } from "../../src/live/protocol.ts";
import { createRecordingSink, type RecordingSink } from "./helpers/recording-sink.ts";

beforeAll(() => {
  process.env["PI_OFFLINE"] = "1";
});

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The text of the last message the model was given, as the faux model's next reply. */
function lastToolResultReply() {
  return (context: { messages: Array<{ role: string; content?: unknown; isError?: boolean }> }) => {
    const last = context.messages.at(-1);
    const text = Array.isArray(last?.content)
      ? (last.content as Array<{ type: string; text?: string }>).map((b) => b.text ?? "").join("")
      : String(last?.content ?? "");
    return fauxAssistantMessage(`model saw ${last?.role} isError=${last?.isError === true}: ${text}`);
  };
}

async function setup(responses: Parameters<ReturnType<typeof fauxProvider>["setResponses"]>[0]) {
  const root = mkdtempSync(join(tmpdir(), "cairn-pi-"));
  dirs.push(root);
  const cwd = join(root, "work");
  const agentDir = join(root, "agent");
  mkdirSync(cwd);
  const faux = fauxProvider({ provider: "faux" });
  faux.setResponses(responses);
  const modelRuntime = await ModelRuntime.create({
    credentials: new InMemoryCredentialStore(),
    modelsPath: null,
    modelsStore: new InMemoryModelsStore(),
    refreshOnCreate: false,
  });
  modelRuntime.registerNativeProvider(faux.provider);
  const driver = createPiDriver({
    cwd,
    agentDir,
    modelRuntime,
    model: faux.getModel(),
    tools: ["read", "bash"],
    settingsManager: SettingsManager.inMemory({ compaction: { enabled: false }, retry: { enabled: false } }),
    resourceLoaderOptions: {
      noExtensions: true,
      noSkills: true,
      noPromptTemplates: true,
      noThemes: true,
      noContextFiles: true,
      systemPromptOverride: () => "You are a test agent.",
    },
  });
  const controller = createLiveController({ driver });
  const sink = createRecordingSink();
  controller.subscribe({ viewportId: "watch" }, sink);
  return { faux, controller, sink, cwd, agentDir };
}

async function waitForPrompt(controller: LiveController): Promise<PendingPrompt> {
  await vi.waitFor(() => expect(controller.getPendingPrompts()).toHaveLength(1), { timeout: 10_000 });
  return controller.getPendingPrompts()[0]!;
}

function events(sink: RecordingSink, type: Envelope["event"]["type"]) {
  return sink
    .envelopes()
    .filter((e) => e.event.type === type)
    .map((e) => e.event);
}

describe("pi driver (faux provider)", () => {
  it("waits for the viewport's allow before running a tool, and writes a pi session file", async () => {
    const { faux, controller, sink, cwd, agentDir } = await setup([
      fauxAssistantMessage([fauxText("Listing."), fauxToolCall("bash", { command: "echo from-bash" }, { id: "c1" })], {
        stopReason: "toolUse",
      }),
      lastToolResultReply(),
    ]);
    const sent = await controller.sendMessage({ text: "list things" });
    const prompt = await waitForPrompt(controller);
    expect(prompt).toMatchObject({
      kind: "tool_permission",
      toolName: "bash",
      toolUseId: "c1",
      input: { command: "echo from-bash" },
    });
    // Nothing has run while the prompt is open: no tool result, no second model call.
    expect(events(sink, "tool_end")).toEqual([]);
    expect(faux.state.callCount).toBe(1);

    expect(
      controller.respondToPrompt(prompt.id, { kind: "tool_permission", allow: true }, { viewportId: "v" }).kind,
    ).toBe("ack");
    expect(await sent.done).toMatchObject({ status: "completed" });
    expect(events(sink, "tool_end")).toEqual([{ type: "tool_end", toolUseId: "c1", output: "from-bash\n" }]);
    const final = controller.getSnapshot().view.transcript.at(-1);
    expect(final).toMatchObject({ kind: "assistant", text: "model saw toolResult isError=false: from-bash\n" });
    expect(controller.getState().model).toBe(`faux/${faux.getModel().id}`);

    const dir = piSessionDir(agentDir, cwd);
    const files = readdirSync(dir).filter((f) => f.endsWith(".jsonl"));
    expect(files).toHaveLength(1);
    const lines = readFileSync(join(dir, files[0]!), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ type: "session", id: controller.getState().sessionId, cwd });
    const roles = lines.filter((l) => l.type === "message").map((l) => l.message.role);
    expect(roles).toEqual(expect.arrayContaining(["user", "assistant", "toolResult"]));
    await controller.dispose();
  });

  it("hands a denied call to the model as an error result", async () => {
    const { controller, sink } = await setup([
      fauxAssistantMessage([fauxToolCall("bash", { command: "rm -rf /tmp/nothing" }, { id: "c2" })], {
        stopReason: "toolUse",
      }),
      lastToolResultReply(),
    ]);
    const sent = await controller.sendMessage({ text: "clean up" });
    const prompt = await waitForPrompt(controller);
    controller.respondToPrompt(
      prompt.id,
      { kind: "tool_permission", allow: false, message: "not today" },
      { viewportId: "v" },
    );
    expect(await sent.done).toMatchObject({ status: "completed" });
    expect(events(sink, "tool_end")).toEqual([
      { type: "tool_end", toolUseId: "c2", output: "denied by the user: not today", isError: true },
    ]);
    expect(controller.getSnapshot().view.transcript.at(-1)).toMatchObject({
      text: "model saw toolResult isError=true: denied by the user: not today",
    });
    await controller.dispose();
  });

  it("asks the user through the ask_user tool and gives the model the answer", async () => {
    const { controller } = await setup([
      fauxAssistantMessage(
        [
          fauxToolCall(
            "ask_user",
            { questions: [{ question: "Which fix?", options: [{ label: "Loop bound" }, { label: "Regex" }] }] },
            { id: "q1" },
          ),
        ],
        { stopReason: "toolUse" },
      ),
      lastToolResultReply(),
    ]);
    const sent = await controller.sendMessage({ text: "fix it" });
    const prompt = await waitForPrompt(controller);
    expect(prompt).toMatchObject({ kind: "ask_user_question", questions: [{ question: "Which fix?" }] });
    controller.respondToPrompt(
      prompt.id,
      { kind: "ask_user_question", answers: { "Which fix?": "Regex" } },
      { viewportId: "v" },
    );
    await sent.done;
    expect(controller.getSnapshot().view.transcript.at(-1)).toMatchObject({
      text: 'model saw toolResult isError=false: {"Which fix?":"Regex"}',
    });
    await controller.dispose();
  });

  it("resumes a pi session by id into the same session file", async () => {
    const seen = (context: { messages: Array<{ role: string; content?: unknown }> }) =>
      fauxAssistantMessage(
        `users so far: ${context.messages
          .filter((m) => m.role === "user")
          .map((m) =>
            Array.isArray(m.content) ? (m.content as Array<{ text?: string }>).map((b) => b.text).join("") : m.content,
          )
          .join(", ")}`,
      );
    const { controller, cwd, agentDir, sink } = await setup([seen, seen]);
    await (await controller.sendMessage({ text: "first" })).done;
    const sessionId = controller.getState().sessionId!;
    const firstEpoch = controller.epoch;

    const resumed = await controller.resumeSession({ sessionId, prompt: "second" });
    expect(resumed).toMatchObject({ sessionId });
    expect(resumed.epoch).not.toBe(firstEpoch);
    await vi.waitFor(() => expect(controller.isStreaming()).toBe(false));
    expect(controller.getSnapshot().view.transcript.at(-1)).toMatchObject({ text: "users so far: first, second" });
    expect(readdirSync(piSessionDir(agentDir, cwd)).filter((f) => f.endsWith(".jsonl"))).toHaveLength(1);

    // From a viewport, by a unique prefix: every tab learns which session ended and who switched.
    const reply = await controller.execute(
      { type: "resume_session", clientMsgId: "r1", sessionId: sessionId.slice(0, 8) },
      "tab-1",
    );
    expect(reply).toMatchObject({ kind: "ack", result: { sessionId } });
    expect(sink.envelopes().map((e) => e.event)).toContainEqual({
      type: "session_cleared",
      reason: "resume_session",
      sessionId,
      byViewport: "tab-1",
    });
    await expect(controller.resumeSession({ sessionId: "no-such-session" })).rejects.toThrow(
      /no pi session no-such-session/,
    );
    await controller.dispose();
  });

  it("cancels the prompt and ends the turn on interrupt", async () => {
    const { controller, sink } = await setup([
      fauxAssistantMessage([fauxToolCall("bash", { command: "sleep 100" }, { id: "c3" })], { stopReason: "toolUse" }),
      lastToolResultReply(),
    ]);
    const sent = await controller.sendMessage({ text: "wait" });
    const prompt = await waitForPrompt(controller);
    await controller.interrupt();
    expect((await sent.done).status).toBe("interrupted");
    expect(events(sink, "prompt_resolved")).toEqual([
      { type: "prompt_resolved", promptId: prompt.id, resolution: "cancelled" },
    ]);
    const types = sink.types();
    expect(types.indexOf("prompt_resolved")).toBeLessThan(types.indexOf("turn_ended"));
    await controller.dispose();
  });
});
