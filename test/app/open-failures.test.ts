/** "What was still failing at the end": the ledger's failures about the subject lead the search, through the app. */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCairn } from "../../src/app/cairn.ts";
import { type TempIndex, tempIndex } from "../helpers/temp-index.ts";
import { realFixturesDir } from "../helpers/transcripts.ts";

const CODEX = "codex/agtrace__rollout-2025-12-10T04-55-16-019b04ae-b1c6-7c72-a134-a4c2de66058c.jsonl";

let index: TempIndex;
beforeAll(() => {
  index = tempIndex("cairn-open-failures-", [join(realFixturesDir(), CODEX)]);
});
afterAll(() => index.remove());

describe("search for what was still failing", () => {
  it("leads with the session's failures on the subject, marked as the ledger's", async () => {
    const app = createCairn({ db: index.db, env: { HOME: index.dir } });
    try {
      const { hits } = await app.search({ query: "what was still failing at the end with python", limit: 10 });
      expect(hits[0]!.event_type).toBe("error");
      expect(hits[0]!.snippet).toContain("target shim binary not found");
      expect(hits[0]!.why).toBe("a failure of the session's ledger");
      // the same words without the question's intent are ranked by words alone
      const plain = await app.search({ query: "python", limit: 10 });
      expect(plain.hits.every((h) => h.why !== "a failure of the session's ledger")).toBe(true);
    } finally {
      app.close();
    }
  });
});
