import { describe, expect, it } from "vitest";
import { assistantDecisions, isPlanFile, planFileDecisions, userDecision } from "../../src/topology/decisions.ts";

describe("user decisions", () => {
  const table: Array<[string, string | null]> = [
    ["no, add conversationId field, but set value from sessionId", "user_correction"],
    ["Use SQLite instead of Postgres for the cache.", "user_redirect"],
    ["let's go with the second approach", "user_choice"],
    ["ok, proceed with the migration", "user_approval"],
    ["We should stick with zod for validation.", "user_choice"],
    ["can you run the tests?", null],
    ["what does this function do?", null],
    ["Noted the flaky test earlier.", null],
  ];
  for (const [text, rule] of table) it(text, () => expect(userDecision(text)?.rule ?? null).toBe(rule));
  it("keeps the short steering sentence with the one after it", () => {
    expect(userDecision("No, wait. Keep the old API for now.")?.text).toBe("No, wait. Keep the old API for now.");
  });
  it("does not read decisions into pasted logs", () =>
    expect(userDecision(`no, ${"log line\n".repeat(600)}`)).toBeNull());
});

describe("assistant decisions", () => {
  it("explicit statements only", () => {
    expect(
      assistantDecisions(
        "Let me read the file.\n**Decision**: keep the v1 format readable.\nI'll go with a ring buffer of 10k events.",
      ),
    ).toEqual([
      { rule: "assistant_decision", text: "**Decision**: keep the v1 format readable." },
      { rule: "assistant_choice", text: "I'll go with a ring buffer of 10k events." },
    ]);
    expect(assistantDecisions("I'll read the config first, then run the tests.")).toEqual([]);
  });
});

describe("plan files", () => {
  it("recognises plan and ADR files", () => {
    expect(isPlanFile("docs/PLAN.md")).toBe(true);
    expect(isPlanFile("docs/adr/0003-use-sqlite.md")).toBe(true);
    expect(isPlanFile("src/plan.ts")).toBe(false);
  });
  it("reads Decision sections", () => {
    const md = "# Design\n\n## Decision\nUse SQLite with WAL.\nOne writer.\n\n## Context\nblah";
    expect(planFileDecisions(md)).toEqual([{ rule: "plan_file", text: "Decision: Use SQLite with WAL. One writer." }]);
  });
});
