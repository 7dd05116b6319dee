import { describe, expect, it } from "vitest";
import { assistantDecisions, restatesUser } from "../../src/topology/decision-agent.ts";
import { userDecision } from "../../src/topology/decision-user.ts";
import { askOf, isPlanFile, planFileDecisions } from "../../src/topology/decisions.ts";
import type { SessionEvent } from "../../src/topology/types.ts";
import { jsonl, parseText } from "../helpers/transcripts.ts";

describe("user decisions", () => {
  const table: Array<[string, string | null]> = [
    ["no, add conversationId field, but set value from sessionId", "user_correction"],
    ["no, we want to put it in pendingMessageContainer, not in the chat container", "user_correction"],
    ["Use SQLite instead of Postgres for the cache.", "user_redirect"],
    ["omfg use rgb values in the themes, no rgb indices!", "user_redirect"],
    ["let's go with the second approach", "user_choice"],
    ["We should stick with zod for validation.", "user_choice"],
    ["don't create separate documents. put it into the existing one", "user_choice"],
    ["should be dimmer, don't modify the theme, look into the footer sources", "user_choice"],
    ["it's bad idea, since the entire conversation will be processed every time", "user_rejection"],
    ["yeah you can undo that, it was the console logs", "user_rejection"],
    ["ok, i think our themes need explicit tokens for the thinking level border", "user_choice"],
    ["well, i think it should be toolTitle and toolOutput?", "user_choice"],
    ["no, the block should stay as is", "user_correction"],
    ["no conosle logs! setTheme should return an error that the caller can display", "user_correction"],
    ["no, that's wrong, use the light theme", "user_correction"],
    // questions ask, they do not decide
    ["can you run the tests?", null],
    ["wait, do we only have a single link color? we have link text and link link they are different in old pi", null],
    ["should we go with zod instead of yup?", null],
    // a correction of a fact is not a decision, and neither is a request for work
    ["no, it's not phase 1 there bunch of pahses completed", null],
    ["no, that's not it, both use the dark theme. can you write a simple test using Theme", null],
    ["no idea why this fails, can you look?", null],
    ["i don't know what that does", null],
    ["what does this function do?", null],
    ["make muted a little brighter", null],
    ["i think the queued messages component doesn't adhere to the width invariant. investigate", null],
    ["Noted the flaky test earlier.", null],
  ];
  for (const [text, rule] of table) it(text, () => expect(userDecision(text, null)?.rule ?? null).toBe(rule));

  it("keeps a short message whole as the decision's text", () => {
    const d = userDecision("before the proposal check the metrics code. don't overcomplicate", null);
    expect(d?.text).toBe("before the proposal check the metrics code. don't overcomplicate");
    expect(d?.rejected).toBe("don't overcomplicate");
  });
  it("does not read decisions into long pasted text", () =>
    expect(userDecision(`no, ${"log line\n".repeat(600)}`, null)).toBeNull());

  it("an answer picks an option or approves a proposal, but not a question about going on", () => {
    const release = askOf("I'd suggest `npm run version:minor` (0.7.29 -> 0.8.0).\n\nOr do you want a patch release?");
    expect(release?.procedural).toBe(false);
    expect(userDecision("minor, this is a big change", release)).toMatchObject({
      rule: "user_choice",
      chosen: "minor",
    });
    const token = askOf("Should I add a new token like `mdLinkUrl` so link text and URL can differ?");
    expect(userDecision("yes, in old pi link url was 666666", token)?.rule).toBe("user_approval");
    const design = askOf("Would you like me to implement this design now, or review the document first?");
    expect(userDecision("track it in the same file as the metrics", design)?.rule).toBe("user_redirect");
    const proceed = askOf("Should I proceed with committing and tagging?");
    expect(proceed?.procedural).toBe(true);
    expect(userDecision("yeah, do it all", proceed)).toBeNull();
    expect(userDecision("yes.", askOf("Should I continue with the rebase?"))).toBeNull();
    expect(askOf("Done. The tests pass.")).toBeNull();
  });
});

describe("assistant decisions", () => {
  it("explicit statements only", () => {
    expect(
      assistantDecisions(
        "Let me read the file.\n**Decision**: keep the v1 format readable.\nI'll go with a ring buffer of 10k events.",
      ).map((d) => [d.rule, d.text]),
    ).toEqual([
      ["assistant_decision", "Decision: keep the v1 format readable."],
      ["assistant_choice", "I'll go with a ring buffer of 10k events."],
    ]);
    expect(assistantDecisions("I'll read the config first, then run the tests.")).toEqual([]);
  });

  it("a heading that announces the decision takes the line under it", () => {
    const text =
      "## Options\n\n### Option 1: CrewAI\nRole-based.\n\n### Option 2: LangGraph\nGraph-based.\n\n## Framework Decision\n\nWe'll use **LangGraph**: explicit state and checkpoints.";
    const [d] = assistantDecisions(text);
    expect(d).toMatchObject({ rule: "assistant_decision", who: "agent" });
    expect(d?.text).toBe("Framework Decision: We'll use LangGraph: explicit state and checkpoints.");
  });

  it("choices, verdicts on a review and deferrals; not fixes or suggestions that still ask", () => {
    const table: Array<[string, string[]]> = [
      ["I think option 2 is cleanest - we can map to existing semantic colors.", ["assistant_choice"]],
      ["**Best solution**: Add a helper method to the Theme class.", ["assistant_decision"]],
      ["Let me revert that and instead update the knip config to ignore these.", ["assistant_choice"]],
      ["The route should directly return the streaming response, not delegate via fetch.", ["assistant_choice"]],
      ["The feedback is wrong - I should send the raw content string.", ["assistant_review"]],
      ["**Remaining feedback for future consideration:**\n- Backpressure handling", ["assistant_defer"]],
      ["The theme loader should catch this error gracefully instead of crashing.", []],
      ["Let me fix the test by passing a background function instead of RGB:", []],
      ["This seems like a minor release, so I'd suggest `version:minor`.\n\nOr do you want a patch release?", []],
      ["Done! The cache now uses an LRU map instead of a plain object.", ["assistant_choice"]],
      ["Changed the loader to use streaming reads instead of loading the whole file.", ["assistant_choice"]],
      ["It reuses the existing queue, so no new worker pool was needed.", ["assistant_choice"]],
      // a report of what something does, a guess, or a fix is no choice
      ["The signature changed - it now takes a callback instead of an options object.", []],
      ["I bet the terminal would use the 256-colour palette instead of truecolor.", []],
      ["Changed the parser to use the right offset instead of the wrong one that crashed.", []],
    ];
    for (const [text, rules] of table)
      expect(
        assistantDecisions(text).map((d) => d.rule),
        text.slice(0, 40),
      ).toEqual(rules);
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
      expect([...new Set(assistantDecisions(text).map((d) => d.rule))], text.slice(0, 40)).toEqual(rules);
  });

  it("an acknowledgement restates the user's decision only when it says what it will do", () => {
    expect(restatesUser("You're right! Let me integrate this into the existing doc as Phase 1.")).toBe(
      "You're right! Let me integrate this into the existing doc as Phase 1.",
    );
    expect(restatesUser("You're absolutely right! Let me check the existing metrics implementation first:")).toBeNull();
    expect(restatesUser("The build passes. Let me commit.")).toBeNull();
  });
});

describe("decisions through the normalizer", () => {
  /** A pi session of alternating messages. */
  function session(messages: Array<["user" | "assistant", string]>): string {
    const records: unknown[] = [
      { type: "session", version: 3, id: "s1", timestamp: "2026-06-05T05:00:00.000Z", cwd: "/w" },
    ];
    messages.forEach(([role, text], i) => {
      const message =
        role === "user" ? { role, content: text } : { role, content: [{ type: "text", text }], stopReason: "stop" };
      records.push({
        type: "message",
        id: `m${i}`,
        parentId: i === 0 ? null : `m${i - 1}`,
        timestamp: `2026-06-05T05:00:${String(i).padStart(2, "0")}.000Z`,
        message,
      });
    });
    return jsonl(...records);
  }
  const dialogue: Array<["user" | "assistant", string]> = [
    ["user", "how should we colour the thinking border?"],
    ["assistant", "I think option 2 is cleanest: map the thinking levels to existing theme colors."],
    ["user", "i think our themes need explicit tokens for the thinking level border colors"],
    ["assistant", "You're right. Let me add explicit thinking level tokens to the theme colors."],
    ["user", "Should the footer be dimmer?"],
    ["assistant", "Should I add a new token for link URLs?"],
    ["user", "yes, make it #666666"],
  ];
  const decisionsOf = (events: SessionEvent[]) => events.filter((e) => e.event_type === "decision");

  it("keeps who, what and the links between decisions, the same in one batch or several", () => {
    const whole = decisionsOf(parseText("/s/a.jsonl", session(dialogue)).events);
    expect(whole.map((d) => [d.meta["rule"], d.meta["who"]])).toEqual([
      ["assistant_choice", "agent"],
      ["user_choice", "user"],
      ["assistant_restates", "user"],
      ["user_approval", "user"],
    ]);
    const [agent, user, restated] = whole;
    expect(user!.meta["supersedes"]).toBe(agent!.event_id);
    expect(restated!.meta["restates"]).toBe(user!.event_id);
    expect(restated!.meta["supersedes"]).toBeUndefined();
    for (const splits of [[2], [3, 5], [1, 2, 3, 4, 5, 6, 7]]) {
      const pieces = decisionsOf(parseText("/s/a.jsonl", session(dialogue), splits).events);
      expect(pieces).toEqual(whole);
    }
  });

  it("the agent saying yes to a proposal the user put as a question takes it up; a fix or a yes to a request does not", () => {
    const adopted = decisionsOf(
      parseText(
        "/s/a.jsonl",
        session([
          ["user", "could we cache the parsed config between runs? it is slow"],
          ["assistant", "Yes! The parse is the slow part. Let me add a cache keyed by the file's mtime:"],
          ["user", "could we check why the build fails?"],
          ["assistant", "Yes, let me fix the failing import first."],
          ["user", "please rename the helper"],
          ["assistant", "Sure! Let me rename it to loadConfig."],
        ]),
      ).events,
    );
    expect(adopted.map((d) => [d.meta["rule"], d.meta["who"]])).toEqual([["assistant_choice", "agent"]]);
    expect(adopted[0]!.text).toContain("cache keyed by");
  });

  it("links a superseding decision to the one it replaces with an edge", () => {
    const parsed = parseText("/s/a.jsonl", session(dialogue));
    const [agent, user] = decisionsOf(parsed.events);
    expect(parsed.edges).toContainEqual(
      expect.objectContaining({ src: user!.event_id, dst: agent!.event_id, edge_type: "supersedes" }),
    );
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
    expect(planFileDecisions(md)).toMatchObject([
      { rule: "plan_file", text: "Decision: Use SQLite with WAL. One writer." },
    ]);
  });
});
