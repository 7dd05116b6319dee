/** Every MCP tool answer passes toolResult: its text and structured content leave with markers, not secrets. */
import { expect, it } from "vitest";
import { plantedCases } from "../../bench/secrets-cases.ts";
import { toolResult } from "../../src/mcp/bounded-output.ts";

it("an MCP tool answer carries no planted secret, in text or structured content", () => {
  const cases = plantedCases().filter((c) => !c.knownMiss);
  const text = cases.map((c) => c.text).join("\n");
  const out = JSON.stringify(toolResult({ text, structured: { hits: cases.map((c) => ({ text: c.text })) } }));
  for (const c of cases) {
    expect(out, c.label).not.toContain(c.secret);
    expect(out, c.label).not.toContain(JSON.stringify(c.secret).slice(1, -1));
  }
  expect(out).toContain("[secret:");
});
