import { describe, expect, it } from "vitest";
import { assistantDecisions, isPlanFile, planFileDecisions, userDecision } from "../../src/topology/decisions.ts";

describe("user decisions", () => {
  const table: Array<[string, string | null]> = [
    ["no, add conversationId field, but set value from sessionId", "user_correction"],
    ["Use SQLite instead of Postgres for the cache.", "user_redirect"],
    ["let's go with the second approach", "user_choice"],
    ["ok, proceed with the migration", "user_approval"],
    ["We should stick with zod for validation.", "user_choice"],
    ["no, the block should stay as is", "user_correction"],
    [
      "no conosle logs! setTheme should return an error that the caller can display however they want",
      "user_correction",
    ],
    ["no, that's wrong, use the light theme", "user_correction"],
    // questions ask, they do not decide
    ["can you run the tests?", null],
    ["wait, do we only have a single link color? we have link text and link link they are different in old pi", null],
    ["should we go with zod instead of yup?", null],
    // a correction of a fact is not a decision
    ["no, it's not phase 1 there bunch of pahses completed", null],
    [
      "no, that's not it, bot use the dark theme. fucking hell. is Theme.fg/bg maybe doing something stupid? can you write a simple test using Theme that loads the dark theme",
      null,
    ],
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
  it("a list of options is not a choice", () => {
    const options = [
      "## Part 5: Solution Recommendations",
      "### Option 1: Always Re-sync (Recommended ⭐)",
      "**Approach**: Remove session-level filtering for conversations, rely on API deduplication",
      "### Option 2: Message-Level Tracking (Like Metrics)",
      "**Approach**: Track individual message IDs that were synced",
      "### Option 3: Hash-Based Change Detection",
      "**Approach**: Track hash of last message to detect changes",
    ].join("\n");
    const table: Array<[string, string[]]> = [
      [options, []],
      // the same label on several lines is a list of alternatives, headings or not
      ["1. **Approach**: cache in memory\n2. **Approach**: cache on disk", []],
      ["Should we go with a ring buffer of 10k events?", []],
      // a decision after the options, under a heading of its own, is kept
      [
        `${options}\n## Recommendation\n**Decision**: re-sync always and let the API deduplicate.`,
        ["assistant_decision"],
      ],
      ["**Approach**: stream the file line by line instead of reading it whole.", ["assistant_decision"]],
    ];
    for (const [text, rules] of table)
      expect(
        assistantDecisions(text).map((d) => d.rule),
        text.slice(0, 40),
      ).toEqual(rules);
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
