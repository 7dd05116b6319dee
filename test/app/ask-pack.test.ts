/** The evidence pack gathered from a real index: hits with their chains, the ledger of a named session, the budget. */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evidencePack, searchable } from "../../src/app/ask.ts";
import { createCairn } from "../../src/app/cairn.ts";
import { renderPack } from "../../src/ask/pack.ts";
import { createTokenCounter } from "../../src/resume/tokens.ts";
import { type TempIndex, tempIndex } from "../helpers/temp-index.ts";
import { realFixturesDir } from "../helpers/transcripts.ts";

const CODEX = "codex/agtrace__rollout-2025-12-10T04-55-16-019b04ae-b1c6-7c72-a134-a4c2de66058c.jsonl";

let index: TempIndex;
let dir: string;
let db: string;
beforeAll(() => {
  index = tempIndex("cairn-ask-pack-", [join(realFixturesDir(), CODEX)]);
  ({ dir, db } = index);
});
afterAll(() => index.remove());

describe("evidencePack", () => {
  it("holds the failing runs, what they came from, and stays under the budget", async () => {
    const app = createCairn({ db, env: { HOME: dir } });
    try {
      const pack = await evidencePack(app, { question: "why was the target shim binary not found?", budget: 2000 });
      expect(pack.tokens).toBeLessThanOrEqual(2000);
      expect(createTokenCounter().count(renderPack(pack))).toBe(pack.tokens);
      const texts = pack.items.map((i) => i.text).join("\n");
      expect(texts).toContain("target shim binary not found");
      expect(pack.items.some((i) => i.reason === "chain")).toBe(true);
      for (const item of pack.items) expect(app.reader().getEventHead(item.event_id, 0)).toBeDefined();
    } finally {
      app.close();
    }
  });

  it("puts the named session's ledger first", async () => {
    const app = createCairn({ db, env: { HOME: dir } });
    try {
      const session = app.sessions({})[0]!;
      const pack = await evidencePack(app, { question: "what was asked?", session: session.session_id.slice(0, 8) });
      expect(pack.session_id).toBe(session.session_id);
      expect(pack.items[0]!.reason).toBe("ledger");
      // a quoted fact carries its words, not only its label
      const goal = pack.items.find((i) => i.text.startsWith("**Goal**"));
      expect(goal?.text).toMatch(/^\*\*Goal\*\* \(turn \d+\): \S/);
      expect(pack.items.every((i) => i.session_id === session.session_id)).toBe(true);
    } finally {
      app.close();
    }
  });

  it("reads a question's punctuation as words, never as query syntax", () => {
    expect(searchable('what "failed" (in auth.ts)?')).toBe("what failed in auth.ts");
  });
});
