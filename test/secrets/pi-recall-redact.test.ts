/** pi's recall tool hands search hits to the agent: their snippets leave with markers, not secrets. */
import { expect, it } from "vitest";
import { plantedCases } from "../../bench/secrets-cases.ts";
import { formatHits } from "../../src/pi/recall/recall-tools.ts";

it("cairn_search_history's text carries no planted secret", () => {
  const cases = plantedCases().filter((c) => !c.knownMiss);
  const hits = cases.map((c, i) => ({
    eventId: `e${i}`,
    sessionId: "s1",
    timestamp: "2026-01-08T10:00:00Z",
    provider: "claude",
    kind: "tool_result",
    snippet: c.text,
  }));
  const text = formatHits("key", hits as never);
  for (const c of cases) expect(text, c.label).not.toContain(c.secret);
  expect(text).toContain("[secret:");
});
