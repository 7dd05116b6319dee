/** Entity overlap: a file counts as named by its base name only when no other file of the session shares it. */
import { describe, expect, it } from "vitest";
import type { Ledger } from "../../src/resume/ledger-types.ts";
import { validateBrief } from "../../src/resume/validate.ts";

const ledger = { files: [], failures: [], checks: [], decisions: [], plan: [], constraints: [], latest: [], step: {} };

function overlap(text: string, files: string[]): number {
  return validateBrief({
    text,
    tokens: 10,
    originalTokens: 1000,
    ledger: { ...ledger, step: { target: null, current: null } } as unknown as Ledger,
    entities: new Map(files.map((f) => [`file:${f}`, 1])),
  }).entity_overlap;
}

describe("entity overlap names files by path, or by a base name no other file shares", () => {
  it("a unique base name names its file", () => {
    expect(overlap("- truncated-text.ts: wrapText, TruncatedText", ["packages/tui/src/truncated-text.ts"])).toBe(1);
  });

  it("a base name two files share names neither", () => {
    expect(overlap("- index.ts: main", ["src/index.ts", "lib/index.ts"])).toBe(0);
    expect(overlap("- src/index.ts: main", ["src/index.ts", "lib/index.ts"])).toBe(0.5);
  });

  it("the tail of a longer file name is not a mention", () => {
    expect(overlap("- truncated-text.ts: wrapText", ["packages/tui/src/text.ts"])).toBe(0);
  });
});
