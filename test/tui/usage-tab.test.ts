/**
 * The Usage tab's lines, drawn from report answers made here: the table of one grouping with a bar of each row's
 * cost, fitted to the pane's width; the keys that switch the grouping; the selection a new report starts at; and
 * the rows that open a session.
 */
import { visibleWidth, wrapTextWithAnsi } from "@earendil-works/pi-tui";
import { describe, expect, it } from "vitest";
import type { Shaped } from "../../src/app/cairn.ts";
import type { UsageAnswer } from "../../src/app/catalog/usage.ts";
import { Cursor } from "../../src/tui/cursor.ts";
import { createStyle } from "../../src/tui/style.ts";
import { compact, costBar, type UsageTab, usageGroupingFor, usageView } from "../../src/tui/usage-tab.ts";
import type { UsageGrouping } from "../../src/usage/report.ts";

const style = createStyle(false);
const wrap = (text: string, width: number) => (text === "" ? [""] : wrapTextWithAnsi(text, width));

type Group = Shaped<UsageAnswer>["groups"][number];

function totals(total: number, cost: number, extra: Partial<Group> = {}) {
  return {
    input: 10,
    output: total - 10,
    cache_read: 0,
    cache_write: 0,
    reasoning: 0,
    total,
    cost,
    calls: 3,
    unpriced_calls: 0,
    recorded_cost: null,
    ...extra,
  };
}

function group(key: string, total: number, cost: number, extra: Partial<Group> = {}): Group {
  return { key, first: null, last: null, by_model: [], by_agent: [], ...totals(total, cost), ...extra };
}

function answer(by: UsageGrouping, groups: Group[], extra: Partial<Shaped<UsageAnswer>> = {}): Shaped<UsageAnswer> {
  const total = groups.reduce((n, g) => n + g.total, 0);
  const cost = groups.reduce((n, g) => n + g.cost, 0);
  return {
    by,
    time_zone: "UTC",
    since: null,
    until: null,
    groups,
    totals: { ...totals(total, cost), calls: groups.length * 3 },
    unpriced_models: [],
    prices: ["the shipped table"],
    more: 0,
    agents_without_usage: [],
    ...extra,
  };
}

const DAYS = [
  group("2026-11-20", 69_344_257, 43.2),
  group("2026-11-21", 5_976_459, 8.43),
  group("2026-11-22", 606_530, 1.32),
  group("2026-11-23", 1_000, 0),
];

const tab = (a: Shaped<UsageAnswer>): UsageTab => ({ by: a.by, answer: a, error: null, pending: true });

/** The table's rows: the lines before the total. */
const rowsOf = (lines: { text: string }[]) =>
  lines.slice(
    0,
    lines.findIndex((l) => l.text.startsWith("Total")),
  );
const barOf = (text: string) => /[█▏▎▍▌▋▊▉]+$/.exec(text)?.[0] ?? "";

describe("the Usage tab", () => {
  it("draws each day with its tokens, its cost and a bar as long as its share of the costliest day", () => {
    const v = usageView(tab(answer("day", DAYS)), new Cursor(), 80, 20, style, wrap);
    expect(v.head[0]).toBe("Usage by day · 4 rows · 75,928,246 tokens · $52.95");
    expect(v.head.at(-1)).toMatch(/^ Day\s+Tokens\s+Cost$/);
    const rows = rowsOf(v.lines);
    expect(rows.map((r) => r.text.split(/\s+/).slice(0, 3))).toEqual([
      ["2026-11-20", "69,344,257", "$43.20"],
      ["2026-11-21", "5,976,459", "$8.43"],
      ["2026-11-22", "606,530", "$1.32"],
      ["2026-11-23", "1,000", "$0.00"],
    ]);
    const bars = rows.map((r) => barOf(r.text));
    // The costliest day's bar runs to the pane's edge; the others by their share of it, in eighths of a column.
    expect(visibleWidth(rows[0]!.text)).toBe(80);
    const full = bars[0]!.length;
    expect(bars[0]).toBe("█".repeat(full));
    const eighths = (b: string) => [...b].reduce((n, c) => n + (c === "█" ? 8 : " ▏▎▍▌▋▊▉".indexOf(c)), 0);
    expect(eighths(bars[1]!)).toBe(Math.round((8.43 / 43.2) * full * 8));
    expect(eighths(bars[2]!)).toBe(Math.round((1.32 / 43.2) * full * 8));
    expect(bars[3]).toBe("");
    const total = v.lines.find((l) => l.text.startsWith("Total"))!.text;
    expect(total.split(/\s+/)).toEqual(["Total", "75,928,246", "$52.95"]);
  });

  it("fits every width a pane has at 60 columns and up, every digit where there is room", () => {
    const sessions = answer(
      "session",
      DAYS.map((d, i) =>
        group(`${i}0000000-aaaa-bbbb-cccc-dddddddddddd`, d.total, d.cost, {
          session: {
            session_id: `${i}0000000-aaaa-bbbb-cccc-dddddddddddd`,
            session_short: `${i}0000000`,
            provider: "claude",
            kind: "main",
            parent_session_id: null,
            project: "a-project-with-a-long-name",
            title: "能 a title wide characters and all, longer than any pane ".repeat(3),
          } as Group["session"],
        }),
      ),
      { unpriced_models: [{ model: "some-model", calls: 2 }], agents_without_usage: ["gemini"] },
    );
    for (const a of [answer("day", DAYS), sessions])
      for (const width of [30, 40, 58, 80, 120, 199]) {
        const v = usageView(tab(a), new Cursor(), width, 30, style, wrap);
        for (const line of [...v.head, ...v.lines.map((l) => l.text)])
          expect(visibleWidth(line), `${a.by} at ${width}: ${line}`).toBeLessThanOrEqual(width + 1);
        for (const line of v.lines) expect(visibleWidth(line.text)).toBeLessThanOrEqual(width);
        const rows = rowsOf(v.lines);
        // 40 columns (a 60-column terminal, the session list beside) hold every digit and a bar; narrower, the
        // tokens go short before the bar goes.
        expect(barOf(rows[0]!.text).length).toBeGreaterThanOrEqual(6);
        if (width >= 40) expect(rows[0]!.text).toContain("69,344,257");
        else expect(rows[0]!.text).toContain("69.3M");
      }
  });

  it("marks a cost it could not know and names the agents that recorded nothing", () => {
    const a = answer("model", [group("opus", 100, 2), group("mystery", 50, 0, { unpriced_calls: 2 })], {
      unpriced_models: [{ model: "mystery", calls: 2 }],
      agents_without_usage: ["gemini", "qwen"],
    });
    a.totals.unpriced_calls = 2;
    const v = usageView(tab(a), new Cursor(), 80, 20, style, wrap);
    expect(v.head[0]).toMatch(/\$2\.00\*$/);
    expect(rowsOf(v.lines)[1]!.text).toMatch(/^mystery\s+50\s+\$0\.00\*$/);
    const notes = v.lines.map((l) => l.text).join(" ");
    expect(notes).toMatch(/\* not priced \(no price for mystery\)/);
    expect(notes).toMatch(/no token counts recorded by gemini, qwen: their usage is unknown/);
  });

  it("says when nothing was recorded, and while it reads", () => {
    const none = usageView(tab(answer("day", [])), new Cursor(), 80, 20, style, wrap);
    expect(none.head[0]).toBe("No token counts recorded");
    expect(none.lines.some((l) => l.text.startsWith("Total"))).toBe(false);
    const reading = usageView(
      { by: "week", answer: null, error: null, pending: true },
      new Cursor(),
      80,
      20,
      style,
      wrap,
    );
    expect(reading.lines[0]!.text).toBe("reading the usage by week…");
    expect(reading.head.join(" ")).toContain("[w week]");
  });

  it("selects the latest period with the table's end in view, or the costliest row; a session's row opens it", () => {
    const many = Array.from({ length: 40 }, (_, i) => group(`2026-10-${String(i + 1).padStart(2, "0")}`, 100 + i, i));
    const cursor = new Cursor();
    const v = usageView(tab(answer("day", many)), cursor, 80, 12, style, wrap);
    expect(cursor.index).toBe(39);
    expect(cursor.window(12 - v.head.length)).toBe(v.lines.length - (12 - v.head.length));

    const s = answer("session", [
      group("s1", 10, 2, {
        session: {
          session_id: "s1",
          session_short: "s1",
          provider: "pi",
          kind: "main",
          parent_session_id: null,
          parent_session_short: null,
          project: null,
          title: "t",
        },
      }),
    ]);
    const c2 = new Cursor();
    const sv = usageView(tab(s), c2, 80, 12, style, wrap);
    expect(c2.index).toBe(0);
    expect(sv.lines[0]).toMatchObject({ session: "s1" });
    expect(sv.lines.filter((l) => l.session !== undefined)).toHaveLength(1);
  });

  it("switches grouping by key, and steps through them with ← →", () => {
    expect(["d", "w", "m", "b", "s", "p", "a", "M"].map((k) => usageGroupingFor(k, "day"))).toEqual([
      "day",
      "week",
      "month",
      "block",
      "session",
      "project",
      "agent",
      "model",
    ]);
    expect(usageGroupingFor("x", "day")).toBeNull();
    expect(usageGroupingFor("", "day", 1)).toBe("week");
    expect(usageGroupingFor("", "day", -1)).toBe("model");
    expect(usageGroupingFor("", "model", 1)).toBe("day");
  });

  it("draws bars in eighths and short token counts", () => {
    expect(costBar(1, 4)).toBe("████");
    expect(costBar(0.5, 3)).toBe("█▌");
    expect(costBar(0.0001, 10)).toBe("▏");
    expect(costBar(0, 10)).toBe("");
    expect(costBar(1, 0)).toBe("");
    expect([999, 1_500, 69_344_257, 1_234_567_890].map(compact)).toEqual(["999", "1.5k", "69.3M", "1.2B"]);
  });
});
