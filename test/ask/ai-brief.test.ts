/** The acceptance rule of an AI-written brief, on its own: facts word for word, citations that check out. */
import { describe, expect, it } from "vitest";
import { checkAiBrief } from "../../src/ask/ai-brief.ts";
import { buildPack } from "../../src/ask/pack.ts";
import type { MustKeep } from "../../src/resume/brief-types.ts";

const counter = { name: "chars/4", count: (s: string) => Math.ceil(s.length / 4) };
const item = (event_id: string, text: string) => ({
  event_id,
  session_id: "s",
  provider: "claude",
  timestamp: null,
  event_type: "user_message",
  status: null,
  text,
  reason: "ledger" as const,
});
const pack = buildPack(
  "resume brief",
  [
    item("aaaa000000000001", "Do not touch the public API of src/api.ts"),
    item("aaaa000000000002", "npm test failed: TypeError: cannot read properties of undefined (reading 'id')"),
  ],
  { budget: 10_000, counter },
);
const keep: MustKeep[] = [
  { kind: "constraint", needle: "Do not touch the public API of src/api.ts" },
  { kind: "open_failure", needle: "TypeError: cannot read properties of undefined (reading 'id')" },
];

describe("checkAiBrief", () => {
  it("accepts every fact word for word (whitespace aside) with valid citations", () => {
    const text =
      "Constraint: Do not touch the public API\nof src/api.ts [e:aaaa000000000001].\nStill open: `npm test` fails with TypeError: cannot read properties of undefined (reading 'id') [e:aaaa000000000002].";
    const c = checkAiBrief(text, keep, pack);
    expect(c.reasons).toEqual([]);
    expect(c.accepted).toBe(true);
  });

  it("rejects a paraphrased constraint, an uncited brief and a citation outside the pack", () => {
    const paraphrase = checkAiBrief(
      "Leave src/api.ts alone [e:aaaa000000000001]. TypeError: cannot read properties of undefined (reading 'id') [e:aaaa000000000002].",
      keep,
      pack,
    );
    expect(paraphrase.accepted).toBe(false);
    expect(paraphrase.missing).toEqual(["constraint: Do not touch the public API of src/api.ts"]);
    const uncited = checkAiBrief(
      "Do not touch the public API of src/api.ts. TypeError: cannot read properties of undefined (reading 'id').",
      keep,
      pack,
    );
    expect(uncited.reasons).toEqual(["it cites no evidence"]);
    const outside = checkAiBrief(
      "Do not touch the public API of src/api.ts [e:aaaa000000000001]. TypeError: cannot read properties of undefined (reading 'id') [e:ffff000000000009].",
      keep,
      pack,
    );
    expect(outside.reasons).toEqual(["1 of its 2 citations do not check out (unknown id)"]);
  });
});
