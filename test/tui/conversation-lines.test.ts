/**
 * The Conversation tab's lines, built from a conversation as the app answers it: the agent's markdown drawn, tool
 * calls as one-line cards that open to a diff and folded output, marks under their block, a resume point across
 * the pane, a line where the day changes, and a subagent folded until opened, then indented.
 */
import { visibleWidth, wrapTextWithAnsi } from "@earendil-works/pi-tui";
import { describe, expect, it } from "vitest";
import type { ConversationItem } from "../../src/app/conversation.ts";
import type { SessionRow } from "../../src/store/types.ts";
import { type Clock, conversationLines } from "../../src/tui/conversation-lines.ts";
import { lineDiff } from "../../src/tui/line-diff.ts";
import { createStyle } from "../../src/tui/style.ts";

const wrap = (text: string, width: number) => (text === "" ? [""] : wrapTextWithAnsi(text, width));
const plain = createStyle(false);
const UTC: Clock = { day: (iso) => iso.slice(0, 10), time: (iso) => iso.slice(11, 16) };
const NONE = new Set<string>();

const message = (who: "user" | "assistant", text: string, time: string, id: string): ConversationItem => ({
  kind: "message",
  who,
  event_id: id,
  time,
  tag: null,
  text,
  status: null,
  marks: [],
});

const edit: ConversationItem = {
  kind: "tool",
  name: "Edit",
  summary: "src/math.ts: return a - b; → return a + b;",
  event_id: "edit1",
  time: "2026-01-14T10:01:00.000Z",
  tag: null,
  input: { text: "{}", cut: 0 },
  typed: {
    kind: "edit",
    path: "src/math.ts",
    edits: [
      {
        old: "export function add(a, b) {\n  return a - b;\n}",
        new: "export function add(a, b) {\n  return a + b;\n}",
      },
    ],
  },
  output: { text: Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n"), cut: 0 },
  exit_code: 1,
  status: "error",
  marks: [{ type: "error", glyph: "✗", text: "error: the build failed", event_id: "err1" }],
};

const child = { session_id: "child-1", kind: "subagent", title: "Look for the failing test", event_count: 3 };

const items: ConversationItem[] = [
  message("user", "fix **the** add function", "2026-01-14T10:00:00.000Z", "u1"),
  message(
    "assistant",
    "## Summary\n\nThe sum was a **difference**:\n\n- fixed `add`",
    "2026-01-14T10:00:30.000Z",
    "a1",
  ),
  edit,
  {
    kind: "mark",
    mark: { type: "resume_point", glyph: "⟲", text: "resume point: compacted", event_id: "r1" },
    time: "2026-01-14T10:02:00.000Z",
    tag: null,
  },
  {
    kind: "subagent",
    session: child as unknown as SessionRow,
    time: "2026-01-15T09:00:00.000Z",
    items: [message("assistant", "I found **it**", "2026-01-15T09:00:10.000Z", "c1")],
  },
];

const texts = (open: ReadonlySet<string>, width = 60) =>
  conversationLines(items, open, width, plain, wrap, UTC).map((l) => l.text);

describe("conversationLines", () => {
  it("draws the agent's markdown as text and keeps the person's as typed, under a header each", () => {
    const t = texts(NONE);
    expect(t).toContain("user 10:00");
    expect(t).toContain("  fix **the** add function");
    expect(t).toContain("agent 10:00");
    expect(t).toContain("  Summary");
    expect(t).toContain("  The sum was a difference:");
    expect(t).toContain("  • fixed add");
    const agent = t.slice(t.indexOf("agent 10:00"), t.indexOf("agent 10:00") + 6).join("\n");
    expect(agent).not.toMatch(/\*\*|##|`/);
  });

  it("shows a tool call as one line with how it ended and its output's size, opened to a diff and folded output", () => {
    const closed = texts(NONE, 80);
    const card = closed.find((l) => l.includes("Edit"))!;
    expect(card).toBe("▹ Edit src/math.ts: return a - b; → return a + b; · ✗ exit 1 · 230 chars");
    expect(closed.some((l) => l.includes("return a + b;") && l.startsWith("  │"))).toBe(false);
    expect(closed).toContain("  ✗ error: the build failed");

    const open = texts(new Set(["edit1"]), 80);
    expect(open).toContain("▿ Edit src/math.ts: return a - b; → return a + b; · ✗ exit 1 · 230 chars");
    expect(open).toContain("  │ -   return a - b;");
    expect(open).toContain("  │ +   return a + b;");
    expect(open).toContain("  │   export function add(a, b) {");
    expect(open).toContain("  │ line 12");
    expect(open).not.toContain("  │ line 13");
    expect(open).toContain("  │ … 18 more lines");
  });

  it("marks a resume point with a divider across the pane and a new day with a line", () => {
    const t = texts(NONE, 50);
    const divider = t.find((l) => l.includes("resume point: compacted"))!;
    expect(divider).toMatch(/^── ⟲ resume point: compacted ─+$/);
    expect(visibleWidth(divider)).toBe(50);
    expect(t.filter((l) => /^── \d{4}-\d\d-\d\d ─+$/.test(l))).toEqual([
      `── 2026-01-14 ${"─".repeat(36)}`,
      `── 2026-01-15 ${"─".repeat(36)}`,
    ]);
  });

  it("folds a subagent into one line and opens it indented", () => {
    const closed = texts(NONE);
    expect(closed).toContain("▹ subagent: Look for the failing test · 3 events");
    expect(closed.some((l) => l.includes("I found"))).toBe(false);
    const open = texts(new Set(["s-child-1"]));
    expect(open).toContain("▿ subagent: Look for the failing test · 3 events");
    expect(open).toContain("  agent 09:00");
    expect(open).toContain("    I found it");
  });

  it("wraps everything to the pane's width", () => {
    for (const width of [30, 80])
      for (const open of [NONE, new Set(["edit1", "s-child-1"])])
        for (const l of texts(open, width)) expect(visibleWidth(l)).toBeLessThanOrEqual(width);
  });

  it("leads the selection to each block's first line and folds a card from inside it", () => {
    const lines = conversationLines(items, new Set(["edit1"]), 60, plain, wrap, UTC);
    const card = lines.find((l) => l.block === "edit1")!;
    expect(card.text).toContain("Edit");
    expect(card.target).toBe("edit1");
    expect(lines.filter((l) => l.block === "edit1" && l.text.startsWith("  │")).every((l) => l.fold === "edit1")).toBe(
      true,
    );
  });
  it("gives the same lines from its memo as made afresh, a card opened or folded since", () => {
    const memo = new WeakMap();
    const afresh = (open: ReadonlySet<string>) => conversationLines(items, open, 60, plain, wrap, UTC);
    const kept = (open: ReadonlySet<string>) => conversationLines(items, open, 60, plain, wrap, UTC, memo);
    for (const open of [NONE, new Set(["edit1"]), NONE, new Set(["edit1", "s-child-1"])])
      expect(kept(open)).toEqual(afresh(open));
  });
});

describe("a fork's conversation", () => {
  const parent = { session_id: "parent-1", title: "Repair the sum" } as SessionRow;
  const forked: ConversationItem[] = [
    { kind: "inherited", from: parent, time: "2026-01-14T10:00:00.000Z", items: items.slice(0, 2) },
    message("user", "now write the notes", "2026-01-14T11:00:00.000Z", "u9"),
  ];

  it("folds what it carried over into one line naming the parent, opened in place", () => {
    const folded = conversationLines(forked, NONE, 80, plain, wrap, UTC);
    const head = folded.find((l) => l.fold === "inherited")!;
    expect(head.text).toMatch(/^▹ carried over from Repair the sum · 2 items, up to the fork$/);
    expect(folded.some((l) => l.text.includes("add function"))).toBe(false);
    const opened = conversationLines(forked, new Set(["inherited"]), 60, plain, wrap, UTC);
    expect(opened.some((l) => l.text.startsWith("  ") && l.text.includes("add function"))).toBe(true);
  });
});

describe("lineDiff", () => {
  it("keeps the lines both sides share and marks the rest", () => {
    expect(lineDiff("a\nb\nc\nd", "a\nB\nc\nd\ne")).toEqual([
      { op: " ", text: "a" },
      { op: "-", text: "b" },
      { op: "+", text: "B" },
      { op: " ", text: "c" },
      { op: " ", text: "d" },
      { op: "+", text: "e" },
    ]);
    expect(lineDiff("", "new")).toEqual([{ op: "+", text: "new" }]);
  });
});
