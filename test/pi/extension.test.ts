/**
 * The extension factory on a typed fake `pi`: what it registers, and how each instance rebuilds its state from the
 * current branch on `session_start` and `session_tree`.
 */
import { SessionManager } from "@earendil-works/pi-coding-agent";
import { describe, expect, it } from "vitest";
import { READONLY_ENTRY_TYPE } from "../../src/pi/readonly/readonly-state.ts";
import { SEQUENCE_WIDGET_KEY } from "../../src/pi/sequence/progress.ts";
import { SEQUENCE_SNAPSHOT_TYPE } from "../../src/pi/sequence/types.ts";
import { KEYS, mountEditor } from "./helpers/editor-host.ts";
import { createExtensionForTest } from "./helpers/extension.ts";
import { cairnCommands, createFakeContext, type createFakePi } from "./helpers/fake-pi.ts";

const snapshot = (id: string, steps: string[]) => ({ version: 1, sequenceId: id, steps, updatedAt: 1 });

/** Open `/sequence`, choose Edit, and read the steps the recorder starts from; then leave with Esc. */
async function restoredSteps(pi: ReturnType<typeof createFakePi>, session: SessionManager): Promise<string[] | null> {
  const { ctx, ui } = createFakeContext({ session });
  ui.answers.select.push("Edit");
  const running = pi.runCommand("sequence", "", ctx);
  await ui.until(() => ui.editorFactory !== undefined, "the recorder");
  const asked = ui.asked.some((question) => question.title === "Restore last sequence?");
  const preview = ui.widgets.get(SEQUENCE_WIDGET_KEY) ?? [];
  mountEditor(ui.editorFactory as NonNullable<typeof ui.editorFactory>).handleInput(KEYS.escape);
  await running;
  const steps = preview.filter((line) => /^\d+\. /.test(line)).map((line) => line.replace(/^\d+\. /, ""));
  return asked ? steps : null;
}

describe("createCairnExtension", () => {
  it("registers cairn's commands and notebook tools; recall tools only with a recall source", () => {
    const { pi } = createExtensionForTest({});
    expect([...pi.commands.keys()].sort()).toEqual(["handoff", "notebook", "readonly", "sequence"]);
    expect([...pi.tools.keys()].sort()).toEqual(["notebook_read", "notebook_write"]);
  });

  it("rehydrates on session_start: the newest valid snapshot on the branch wins, malformed ones are skipped", async () => {
    const session = SessionManager.inMemory("/project");
    session.appendCustomEntry(SEQUENCE_SNAPSHOT_TYPE, snapshot("older", ["older step"]));
    session.appendCustomEntry(SEQUENCE_SNAPSHOT_TYPE, snapshot("newer", ["newer step", "/readonly"]));
    session.appendCustomEntry(SEQUENCE_SNAPSHOT_TYPE, {
      version: 1,
      sequenceId: "broken",
      steps: "nope",
      updatedAt: 2,
    });
    const { pi } = createExtensionForTest({}, { session, commandList: cairnCommands() });
    await pi.emit("session_start", { type: "session_start", reason: "startup" }, createFakeContext({ session }).ctx);
    // Restored exactly as stored.
    expect(await restoredSteps(pi, session)).toEqual(["newer step", "/readonly"]);
  });

  it("follows the branch on session_tree; a branch without a snapshot restores nothing", async () => {
    const session = SessionManager.inMemory("/project");
    session.appendCustomEntry("marker", {});
    const beforeSnapshot = session.getLeafId();
    session.appendCustomEntry(SEQUENCE_SNAPSHOT_TYPE, snapshot("s", ["a step"]));
    const { pi } = createExtensionForTest({}, { session, commandList: cairnCommands() });
    const { ctx } = createFakeContext({ session });
    await pi.emit("session_start", { type: "session_start", reason: "startup" }, ctx);
    expect(await restoredSteps(pi, session)).toEqual(["a step"]);

    if (!beforeSnapshot) throw new Error("expected a leaf");
    session.branch(beforeSnapshot);
    await pi.emit("session_tree", { type: "session_tree", newLeafId: beforeSnapshot, oldLeafId: null }, ctx);
    expect(await restoredSteps(pi, session)).toBeNull();
  });

  it("restores read-only mode and its footer status on session_start", async () => {
    const session = SessionManager.inMemory("/project");
    session.appendCustomEntry(READONLY_ENTRY_TYPE, { version: 1, enabled: true, updatedAt: 1 });
    const { pi } = createExtensionForTest({}, { session });
    const { ctx, ui } = createFakeContext({ session });
    await pi.emit("session_start", { type: "session_start", reason: "resume" }, ctx);
    expect(ui.statuses.get("cairn-readonly")).toBe("🔒 readonly");
  });
});
