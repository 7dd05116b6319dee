import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolCallEvent, ToolCallEventResult } from "@earendil-works/pi-coding-agent";
import { SessionManager } from "@earendil-works/pi-coding-agent";
import { describe, expect, it, onTestFinished } from "vitest";
import {
  READONLY_STATUS_KEY,
  READONLY_USAGE,
  registerReadonly,
  runReadonlyCommand,
  runReadonlyToggle,
} from "../../../src/pi/readonly/readonly.ts";
import { latestReadonly, READONLY_ENTRY_TYPE } from "../../../src/pi/readonly/readonly-state.ts";
import { createBwrapProbe, wrapInBwrap } from "../../../src/pi/readonly/sandbox.ts";
import { rehydrateState } from "../../../src/pi/state.ts";
import { createFakeContext } from "../helpers/fake-pi.ts";
import { createTestState } from "../helpers/test-state.ts";

function bashCall(command: string): ToolCallEvent {
  return { type: "tool_call", toolCallId: "c1", toolName: "bash", input: { command } };
}

async function gate(setup: ReturnType<typeof createTestState>, event: ToolCallEvent, cwd = "/project") {
  const { ctx } = createFakeContext({ cwd });
  const [result] = await setup.pi.emit("tool_call", event, ctx);
  return result as ToolCallEventResult | undefined;
}

describe("runReadonlyToggle", () => {
  it("flips the mode, persists it as a custom entry, and shows it", async () => {
    const session = SessionManager.inMemory("/project");
    const setup = createTestState({ session });
    const { ctx, ui } = createFakeContext({ session });

    expect(await runReadonlyToggle(ctx, setup.state)).toEqual({ enabled: true });
    expect(setup.pi.entries).toEqual([
      { customType: READONLY_ENTRY_TYPE, data: { version: 1, enabled: true, updatedAt: 1001 } },
    ]);
    expect(ui.statuses.get(READONLY_STATUS_KEY)).toBe("🔒 readonly");
    expect(ui.notifications.at(-1)?.message).toContain("write, edit and powershell are blocked");
    expect(latestReadonly(session.getBranch())).toBe(true);

    expect(await runReadonlyToggle(ctx, setup.state)).toEqual({ enabled: false });
    expect(ui.statuses.has(READONLY_STATUS_KEY)).toBe(false);
    expect(latestReadonly(session.getBranch())).toBe(false);
  });

  it("the slash command and the shared function do the same thing", async () => {
    const setup = createTestState();
    registerReadonly(setup.pi.api, setup.state);
    const { ctx } = createFakeContext();
    await setup.pi.runCommand("readonly", "", ctx);
    expect(setup.state.readonly.enabled).toBe(true);
    expect(setup.pi.entries.map((e) => e.customType)).toEqual([READONLY_ENTRY_TYPE]);
  });

  it("is restored per branch", async () => {
    const session = SessionManager.inMemory("/project");
    const setup = createTestState({ session });
    const { ctx } = createFakeContext({ session });
    session.appendCustomEntry("marker", {});
    const beforeToggle = session.getLeafId();
    await runReadonlyToggle(ctx, setup.state);

    rehydrateState(setup.state, session.getBranch());
    expect(setup.state.readonly.enabled).toBe(true);
    if (!beforeToggle) throw new Error("expected a leaf");
    session.branch(beforeToggle);
    rehydrateState(setup.state, session.getBranch());
    expect(setup.state.readonly.enabled).toBe(false);
  });
});

describe("runReadonlyCommand", () => {
  it("on twice stays on and writes one entry; off turns it off", async () => {
    const session = SessionManager.inMemory("/project");
    const setup = createTestState({ session });
    const { ctx, ui } = createFakeContext({ session });

    expect(await runReadonlyCommand(ctx, setup.state, "on")).toEqual({ ok: true, enabled: true });
    expect(await runReadonlyCommand(ctx, setup.state, " ON ")).toEqual({ ok: true, enabled: true });
    expect(setup.state.readonly.enabled).toBe(true);
    expect(setup.pi.entries.map((e) => e.data)).toEqual([{ version: 1, enabled: true, updatedAt: 1001 }]);
    expect(ui.notifications.at(-1)).toEqual({ message: "Read-only mode is already on.", type: "info" });
    expect(ui.statuses.get(READONLY_STATUS_KEY)).toBe("🔒 readonly");

    expect(await runReadonlyCommand(ctx, setup.state, "off")).toEqual({ ok: true, enabled: false });
    expect(latestReadonly(session.getBranch())).toBe(false);
    expect(ui.statuses.has(READONLY_STATUS_KEY)).toBe(false);
  });

  it("without an argument toggles, as the slash command always did", async () => {
    const setup = createTestState();
    registerReadonly(setup.pi.api, setup.state);
    const { ctx } = createFakeContext();
    await setup.pi.runCommand("readonly", "", ctx);
    expect(setup.state.readonly.enabled).toBe(true);
    await setup.pi.runCommand("readonly", "", ctx);
    expect(setup.state.readonly.enabled).toBe(false);
    await setup.pi.runCommand("readonly", "on", ctx);
    await setup.pi.runCommand("readonly", "on", ctx);
    expect(setup.state.readonly.enabled).toBe(true);
  });

  it("rejects anything but on or off and changes nothing", async () => {
    const setup = createTestState();
    const { ctx, ui } = createFakeContext();
    expect(await runReadonlyCommand(ctx, setup.state, "maybe")).toEqual({ ok: false, message: READONLY_USAGE });
    expect(ui.notifications).toEqual([{ message: READONLY_USAGE, type: "error" }]);
    expect(setup.pi.entries).toEqual([]);
  });

  it("completes its arguments", () => {
    const setup = createTestState();
    registerReadonly(setup.pi.api, setup.state);
    const complete = setup.pi.commands.get("readonly")?.getArgumentCompletions;
    expect(complete?.("o")).toEqual([
      { value: "on", label: "on" },
      { value: "off", label: "off" },
    ]);
    expect(complete?.("of")).toEqual([{ value: "off", label: "off" }]);
    expect(complete?.("x")).toBeNull();
  });

  it("offers nothing once the argument is complete, so one Enter submits", () => {
    const setup = createTestState();
    registerReadonly(setup.pi.api, setup.state);
    const complete = setup.pi.commands.get("readonly")?.getArgumentCompletions;
    // pi's editor applies an open list on Enter instead of submitting; an exact match must close it.
    expect(complete?.("on")).toBeNull();
    expect(complete?.("off")).toBeNull();
    expect(complete?.("ON ")).toBeNull();
  });
});

describe("read-only tool gate", () => {
  it("does nothing while read-only mode is off", async () => {
    const setup = createTestState();
    registerReadonly(setup.pi.api, setup.state);
    expect(
      await gate(setup, { type: "tool_call", toolCallId: "c", toolName: "write", input: { path: "a", content: "b" } }),
    ).toBeUndefined();
  });

  it("blocks write and edit, and bash commands the classifier says write", async () => {
    const setup = createTestState();
    registerReadonly(setup.pi.api, setup.state);
    setup.state.readonly.enabled = true;
    expect(
      await gate(setup, { type: "tool_call", toolCallId: "c", toolName: "write", input: { path: "a", content: "b" } }),
    ).toMatchObject({
      block: true,
      reason: expect.stringContaining("write is blocked"),
    });
    expect(
      await gate(setup, { type: "tool_call", toolCallId: "c", toolName: "edit", input: { path: "a", edits: [] } }),
    ).toMatchObject({ block: true });
    expect(await gate(setup, bashCall("rm -rf src"))).toEqual({
      block: true,
      reason: "Read-only mode is on: this command rm changes files.",
    });
  });

  it("blocks powershell, which the classifier cannot read, and lets the reading tools through", async () => {
    const setup = createTestState();
    registerReadonly(setup.pi.api, setup.state);
    setup.state.readonly.enabled = true;
    expect(
      await gate(setup, { type: "tool_call", toolCallId: "c", toolName: "powershell", input: { command: "dir" } }),
    ).toEqual({
      block: true,
      reason:
        "Read-only mode is on: powershell is blocked (powershell commands cannot be checked for writes). Ask the user to run /readonly off to leave it.",
    });
    for (const toolName of ["read", "grep", "find", "ls"]) {
      expect(await gate(setup, { type: "tool_call", toolCallId: "c", toolName, input: { path: "." } })).toBeUndefined();
    }
  });

  it("blocks another extension's tool that declares it changes things, not one that says nothing", async () => {
    const setup = createTestState({
      allTools: [
        { name: "mcp__fs__write_file", annotations: { readOnlyHint: false, destructiveHint: true } },
        { name: "mcp__fs__read_file", annotations: { readOnlyHint: true } },
        { name: "weather" },
      ],
    });
    registerReadonly(setup.pi.api, setup.state);
    setup.state.readonly.enabled = true;
    const call = (toolName: string) => gate(setup, { type: "tool_call", toolCallId: "c", toolName, input: {} });
    expect(await call("mcp__fs__write_file")).toMatchObject({
      block: true,
      reason: expect.stringContaining("mcp__fs__write_file says it changes things"),
    });
    expect(await call("mcp__fs__read_file")).toBeUndefined();
    expect(await call("weather")).toBeUndefined();
    expect(await call("notebook_write")).toBeUndefined();
  });

  it("leaves reading bash commands unchanged when no sandbox is available", async () => {
    const setup = createTestState({ sandbox: { kind: "none" } });
    registerReadonly(setup.pi.api, setup.state);
    setup.state.readonly.enabled = true;
    const event = bashCall("ls -la");
    expect(await gate(setup, event)).toBeUndefined();
    expect(event.input).toEqual({ command: "ls -la" });
  });

  it("rewrites reading bash commands to run inside bwrap when it works", async () => {
    const setup = createTestState({ sandbox: { kind: "bwrap" } });
    registerReadonly(setup.pi.api, setup.state);
    setup.state.readonly.enabled = true;
    const event = bashCall("cat 'it''s.txt'");
    expect(await gate(setup, event, "/work/repo")).toBeUndefined();
    expect(event.input).toEqual({ command: wrapInBwrap("cat 'it''s.txt'", "/work/repo") });
    expect((event.input as { command: string }).command).toMatch(
      /^bwrap --ro-bind \/ \/ .* --chdir \/work\/repo -- \/bin\/bash -c /,
    );
  });

  it("tells the model about the mode through a system-prompt section", async () => {
    const setup = createTestState();
    registerReadonly(setup.pi.api, setup.state);
    const { ctx } = createFakeContext();
    const sections: Record<string, string> = {};
    const event = { type: "before_agent_start", prompt: "hi", systemPrompt: "", systemPromptOptions: { sections } };
    setup.state.readonly.enabled = true;
    await setup.pi.emit("before_agent_start", event, ctx);
    expect(sections["cairn_readonly"]).toContain("Read-only mode is on");
    setup.state.readonly.enabled = false;
    await setup.pi.emit("before_agent_start", event, ctx);
    expect(sections).not.toHaveProperty("cairn_readonly");
  });
});

const bwrapWorks = createBwrapProbe()().kind === "bwrap";

describe.skipIf(!bwrapWorks)("bwrap sandbox (needs bubblewrap)", () => {
  it("lets a command read the project but not write to it, even under /tmp", () => {
    const project = mkdtempSync(join(tmpdir(), "cairn-ro-"));
    onTestFinished(() => rmSync(project, { recursive: true, force: true }));
    writeFileSync(join(project, "notes.txt"), "original\n");
    const run = (command: string) =>
      spawnSync("/bin/bash", ["-c", wrapInBwrap(command, project)], { cwd: project, encoding: "utf8" });

    expect(run("cat notes.txt").stdout).toBe("original\n");
    const write = run("echo changed > notes.txt");
    expect(write.status).not.toBe(0);
    expect(write.stderr).toMatch(/Read-only file system/);
    expect(readFileSync(join(project, "notes.txt"), "utf8")).toBe("original\n");
    expect(run("echo scratch > /tmp/x && cat /tmp/x").stdout).toBe("scratch\n");
  });
});
