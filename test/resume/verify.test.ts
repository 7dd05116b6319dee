/** `resume verify` on constructed resumed sessions: one that repeats and redoes, one that continues. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createResumeEngine } from "../../src/resume/engine.ts";
import { createTokenCounter } from "../../src/resume/tokens.ts";
import { verifyResumed } from "../../src/resume/verify.ts";
import { type IndexedSessions, indexSessions, PiSession } from "./session-builder.ts";
import { CHECK_ERROR, STORY_ID, story } from "./story.ts";

const BAD = "00000bad-aaaa-4bbb-8ccc-000000000005";
const GOOD = "0000900d-aaaa-4bbb-8ccc-000000000006";
const NONE = "00000000-aaaa-4bbb-8ccc-000000000007";
let ix: IndexedSessions;
let briefAt: string;

beforeAll(() => {
  ix = indexSessions(story());
  const brief = createResumeEngine({ store: ix.store, counter: createTokenCounter() }).brief({
    sessionId: STORY_ID,
    budget: 4000,
  });
  briefAt = brief.at;
  ix.add(
    new PiSession(BAD)
      .user(brief.text)
      .bash("npm run check", CHECK_ERROR, 2)
      .tool("todo_write", { todos: [{ content: "add the flag", status: "in_progress" }] }, "ok")
      .read("src/cli.ts", "export function main() {}")
      .read("src/args.ts", "export const n = 1;")
      .read("PLAN.md", "# Plan")
      .read("src/log.ts", "export const log = 1;"),
    new PiSession(GOOD)
      .user(brief.text)
      .read("src/cli.ts", "export function main() {}")
      .edit("src/cli.ts", "run(argv, verbose)", "run(argv, { verbose: values.verbose })")
      .bash("npm run check", "ok", 0)
      .edit("README.md", "## Flags", "## Flags\n- --verbose"),
    new PiSession(NONE).user("just a question").assistant("an answer"),
  );
});
afterAll(() => ix.close());

describe("resume verify", () => {
  it("finds the brief and the cut it was built from", () => {
    const r = verifyResumed(ix.store, { sessionId: GOOD });
    expect(r.brief).toMatchObject({ session_id: STORY_ID, at: briefAt, step: null });
  });

  it("a session that repeats a ledgered failure, reopens a finished item and re-reads carried files is broken", () => {
    const r = verifyResumed(ix.store, { sessionId: BAD, actions: 6 });
    expect(r.verdict).toBe("broken");
    expect(r.actions).toHaveLength(6);
    expect(r.rereads).toBe(4);
    const kinds = r.findings.map((f) => f.kind);
    expect(kinds.filter((k) => k === "repeated_failure")).toHaveLength(1);
    expect(kinds.filter((k) => k === "completed_step")).toHaveLength(1);
    expect(kinds.filter((k) => k === "reread")).toHaveLength(4);
    const repeat = r.findings.find((f) => f.kind === "repeated_failure")!;
    expect(repeat.text).toMatch(/repeats the open failure of `npm run check` \(×3 before the brief\)/);
    expect(ix.store.getEvent(repeat.event_id)).toMatchObject({ session_id: BAD, event_type: "error" });
    for (const id of repeat.ledger_cites) expect(ix.store.getEvent(id)?.session_id).toBe(STORY_ID);
    expect(r.findings.find((f) => f.kind === "completed_step")!.text).toContain('"add the flag" back to in progress');
  });

  it("only the first actions count: with the default five, the fourth re-read is out of reach", () => {
    const r = verifyResumed(ix.store, { sessionId: BAD });
    expect(r.actions).toHaveLength(5);
    expect(r.rereads).toBe(3);
    expect(r.findings.map((f) => f.kind)).toEqual(["repeated_failure", "completed_step"]);
  });

  it("a session that reads once, fixes and moves on is continuous", () => {
    const r = verifyResumed(ix.store, { sessionId: GOOD });
    expect(r).toMatchObject({ verdict: "continuous", rereads: 1, findings: [] });
  });

  it("a session that did not start from a brief is a clear error", () => {
    expect(() => verifyResumed(ix.store, { sessionId: NONE })).toThrow(/does not start from a cairn brief/);
  });
});
