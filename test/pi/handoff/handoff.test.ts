import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SessionManager } from "@earendil-works/pi-coding-agent";
import { describe, expect, it, onTestFinished } from "vitest";
import type { HandoffBriefRequest, HandoffBriefSource } from "../../../src/pi/handoff/brief-source.ts";
import {
  HANDOFF_MESSAGE_TYPE,
  HANDOFF_UNAVAILABLE,
  registerHandoff,
  requestHandoff,
} from "../../../src/pi/handoff/handoff.ts";
import { rebuildPages } from "../../../src/pi/notebook/pages.ts";
import { createFakeContext } from "../helpers/fake-pi.ts";
import { createFakeReplacement } from "../helpers/replacement.ts";
import { createTestState } from "../helpers/test-state.ts";

function fakeBriefs(): HandoffBriefSource & { requests: HandoffBriefRequest[] } {
  const requests: HandoffBriefRequest[] = [];
  return {
    requests,
    async buildBrief(request) {
      requests.push(request);
      return {
        markdown: "- Goal: ship the parser [e:e1]\n- Failing: lexer test [e:e7]",
        citedEventIds: ["e1", "e7"],
      };
    },
  };
}

/** A persisted-looking session: pi reports a file path once the session is saved. */
/** A session with a file path, as pi reports once a session is saved (nothing is written without a reply). */
function savedSession(): SessionManager {
  const dir = mkdtempSync(join(tmpdir(), "cairn-handoff-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return SessionManager.create("/project", dir);
}

describe("requestHandoff", () => {
  it("says handoff is unavailable without a brief source and changes nothing", async () => {
    const replacement = createFakeReplacement();
    const setup = createTestState();
    const { ctx, ui } = createFakeContext({ newSession: replacement.newSession });
    expect(await requestHandoff(ctx, setup.state, "next")).toEqual({
      status: "unavailable",
      message: HANDOFF_UNAVAILABLE,
    });
    expect(ui.notifications).toEqual([{ message: HANDOFF_UNAVAILABLE, type: "warning" }]);
    expect(replacement.sessions).toHaveLength(0);
    expect(setup.pi.entries).toHaveLength(0);
  });

  it("builds a cited brief, starts a new session with it and the notebook, then sends the direction", async () => {
    const briefs = fakeBriefs();
    const replacement = createFakeReplacement();
    const session = savedSession();
    const setup = createTestState({ briefs, session });
    setup.state.notebook.pages.set("plan", { name: "plan", content: "Step 1", updatedAt: 5 });
    const { ctx } = createFakeContext({ session, newSession: replacement.newSession });

    expect(await requestHandoff(ctx, setup.state, "  implement the lexer fix ")).toEqual({ status: "started" });
    expect(briefs.requests).toEqual([
      {
        sessionFile: session.getSessionFile(),
        sessionId: session.getSessionId(),
        leafId: session.getLeafId(),
        cwd: "/project",
        direction: "implement the lexer fix",
      },
    ]);
    const [next] = replacement.sessions;
    expect(next?.parentSession).toBe(session.getSessionFile());
    expect([...rebuildPages(next?.session.getBranch() ?? []).values()]).toEqual([
      { name: "plan", content: "Step 1", updatedAt: 5 },
    ]);
    const message = next?.session.getBranch().find((e) => e.type === "custom_message");
    expect(message).toMatchObject({
      customType: HANDOFF_MESSAGE_TYPE,
      display: true,
      details: { direction: "implement the lexer fix", citedEventIds: ["e1", "e7"] },
    });
    expect(message?.type === "custom_message" && message.content).toContain("- Goal: ship the parser [e:e1]");
    expect(next?.sent).toEqual(["implement the lexer fix"]);
  });

  it("fails visibly and stays put when the brief cannot be built", async () => {
    const replacement = createFakeReplacement();
    const setup = createTestState({
      briefs: {
        buildBrief: async () => {
          throw new Error("session not indexed");
        },
      },
    });
    const { ctx, ui } = createFakeContext({ session: savedSession(), newSession: replacement.newSession });
    expect(await requestHandoff(ctx, setup.state, "go")).toMatchObject({ status: "failed" });
    expect(ui.notifications.at(-1)).toEqual({
      message: "Handoff failed while building the brief: session not indexed. Nothing was changed.",
      type: "error",
    });
    expect(replacement.sessions).toHaveLength(0);
  });

  it("reports a handoff that pi did not carry out, and stays usable", async () => {
    const setup = createTestState({ briefs: fakeBriefs() });
    const { ctx, ui } = createFakeContext({ session: savedSession(), newSession: async () => ({ cancelled: false }) });
    expect(await requestHandoff(ctx, setup.state, "go")).toEqual({
      status: "failed",
      message: "Handoff failed: pi did not start a new session.",
    });
    expect(ui.notifications.at(-1)?.type).toBe("error");
  });

  it("needs a direction and a saved session", async () => {
    const setup = createTestState({ briefs: fakeBriefs() });
    const { ctx } = createFakeContext();
    expect(await requestHandoff(ctx, setup.state, "  ")).toMatchObject({ status: "invalid" });
    expect(await requestHandoff(ctx, setup.state, "go")).toMatchObject({
      status: "failed",
      message: "Handoff needs a saved session; this session is in memory only.",
    });
  });

  it("/handoff runs the same function", async () => {
    const setup = createTestState();
    registerHandoff(setup.pi.api, setup.state);
    const { ctx, ui } = createFakeContext();
    await setup.pi.runCommand("handoff", "anything", ctx);
    expect(ui.notifications).toEqual([{ message: HANDOFF_UNAVAILABLE, type: "warning" }]);
  });
});
