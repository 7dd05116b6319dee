import { describe, expect, it } from "vitest";
import { buildPack, type PackCandidate, renderPack } from "../../src/ask/pack.ts";
import { createTokenCounter } from "../../src/resume/tokens.ts";

const candidate = (event_id: string, text: string, reason: PackCandidate["reason"] = "hit"): PackCandidate => ({
  event_id,
  session_id: "session-1",
  provider: "claude",
  timestamp: "2026-11-02T10:31:00Z",
  event_type: "tool_result",
  status: "error",
  text,
  reason,
});

const counter = createTokenCounter();

describe("buildPack", () => {
  it("keeps each event once, in the order given, with its id cited in the rendered pack", () => {
    const pack = buildPack(
      "why did auth fail",
      [
        candidate("a", "TS2304 in auth.ts"),
        candidate("b", "npm test failed"),
        candidate("a", "TS2304 in auth.ts", "chain"),
      ],
      { budget: 2000, counter },
    );
    expect(pack.items.map((i) => i.event_id)).toEqual(["a", "b"]);
    expect(pack.duplicates).toBe(1);
    const text = renderPack(pack);
    expect(text).toContain("[e:a]");
    expect(text).toContain("[e:b]");
    expect(counter.count(text)).toBe(pack.tokens);
  });

  it("never exceeds the budget, counting with the real tokenizer, and says how much it left out", () => {
    const many = Array.from({ length: 200 }, (_, i) => candidate(`e${i}`, `error number ${i} `.repeat(40)));
    for (const budget of [300, 2000, 8000]) {
      const pack = buildPack("errors", many, { budget, counter });
      expect(pack.tokens).toBeLessThanOrEqual(budget);
      expect(counter.count(renderPack(pack))).toBe(pack.tokens);
      expect(pack.items.length + pack.over_budget).toBe(200);
      expect(pack.items.length).toBeGreaterThan(0);
    }
  });

  it("clips a long text to its head and tail", () => {
    const long = `HEAD ${"x".repeat(50_000)} TAIL`;
    const pack = buildPack("q", [candidate("big", long)], { budget: 8000, counter });
    expect(pack.items[0]!.clipped).toBe(true);
    expect(pack.items[0]!.text.startsWith("HEAD")).toBe(true);
    expect(pack.items[0]!.text.endsWith("TAIL")).toBe(true);
  });

  it("puts a one-line item on one line, its start with how much more there was", () => {
    const long = `first line of a long output\n${"word ".repeat(200)}`;
    const pack = buildPack("q", [{ ...candidate("line", long), detail: "line" }], { budget: 8000, counter });
    const item = pack.items[0]!;
    expect(item.text).not.toContain("\n");
    expect(item.text.startsWith("first line of a long output word")).toBe(true);
    expect(item.text).toMatch(/\[…\d+ more chars\]$/);
    expect(renderPack(pack)).toContain(`[e:line] 2026-11-02 10:31 tool_result (error) s:session-1: ${item.text}\n`);
  });
});
