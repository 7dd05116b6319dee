/**
 * The user's own `!` and `!!` commands in read-only mode, through the `user_bash` event pi fires before running one.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { UserBashEvent, UserBashEventResult } from "@earendil-works/pi-coding-agent";
import { describe, expect, it, onTestFinished } from "vitest";
import { registerReadonly } from "../../../src/pi/readonly/readonly.ts";
import { createBwrapProbe, type SandboxSupport } from "../../../src/pi/readonly/sandbox.ts";
import { createFakeContext } from "../helpers/fake-pi.ts";
import { createTestState } from "../helpers/test-state.ts";

async function userBash(command: string, options: { enabled: boolean; sandbox?: SandboxSupport; cwd?: string }) {
  const setup = createTestState({ sandbox: options.sandbox ?? { kind: "none" } });
  registerReadonly(setup.pi.api, setup.state);
  setup.state.readonly.enabled = options.enabled;
  const cwd = options.cwd ?? "/project";
  const event: UserBashEvent = { type: "user_bash", command, excludeFromContext: false, cwd };
  const results = await setup.pi.emit("user_bash", event, createFakeContext({ cwd }).ctx);
  expect(results).toHaveLength(1);
  return results[0] as UserBashEventResult | undefined;
}

describe("the user's ! commands in read-only mode", () => {
  it("run as usual while read-only mode is off", async () => {
    expect(await userBash("echo hi > f.txt", { enabled: false })).toBeUndefined();
  });

  it("are refused, with the reason and the way out, when the classifier says they write", async () => {
    const answer = await userBash("echo hi > f.txt", { enabled: true, sandbox: { kind: "bwrap" } });
    expect(answer).toEqual({
      result: {
        output:
          "Read-only mode is on: not run, because this command redirects output to f.txt.\nLeave read-only mode with /readonly off, then run it again.",
        exitCode: 126,
        cancelled: false,
        truncated: false,
      },
    });
    expect((await userBash("rm -rf src", { enabled: true }))?.result?.output).toContain("rm changes files");
  });

  it("that read run normally when no sandbox is available", async () => {
    expect(await userBash("ls -la", { enabled: true, sandbox: { kind: "none" } })).toBeUndefined();
  });

  it("that read run through pi's shell inside the sandbox when bwrap works", async () => {
    const answer = await userBash("ls -la", { enabled: true, sandbox: { kind: "bwrap" } });
    expect(answer?.operations?.exec).toBeTypeOf("function");
    expect(answer?.result).toBeUndefined();
  });
});

const bwrapWorks = createBwrapProbe()().kind === "bwrap";

describe.skipIf(!bwrapWorks)("the user's ! commands in the bwrap sandbox (needs bubblewrap)", () => {
  it("read the project, and a write the classifier misses fails without touching it", async () => {
    const project = mkdtempSync(join(tmpdir(), "cairn-ro-user-"));
    onTestFinished(() => rmSync(project, { recursive: true, force: true }));
    writeFileSync(join(project, "notes.txt"), "original\n");
    const run = async (command: string) => {
      const answer = await userBash(command, { enabled: true, sandbox: { kind: "bwrap" }, cwd: project });
      const operations = answer?.operations;
      if (!operations) throw new Error(`expected sandboxed operations for ${command}`);
      let output = "";
      const { exitCode } = await operations.exec(command, project, { onData: (data) => (output += data) });
      return { exitCode, output };
    };

    expect(await run("cat notes.txt")).toEqual({ exitCode: 0, output: "original\n" });
    // awk's own redirection is data to the classifier; the sandbox still stops the write.
    const missed = await run(`awk 'BEGIN { print 1 > "made.txt" }'`);
    expect(missed.exitCode).not.toBe(0);
    expect(missed.output).toMatch(/Read-only file system/);
    expect(existsSync(join(project, "made.txt"))).toBe(false);
    expect(readFileSync(join(project, "notes.txt"), "utf8")).toBe("original\n");
  });
});
