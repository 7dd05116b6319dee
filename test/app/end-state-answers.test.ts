/** "What was still failing at the end": the ledger's failures about the subject lead the search, through the app. */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCairn } from "../../src/app/cairn.ts";
import { type TempIndex, tempIndex } from "../helpers/temp-index.ts";
import { realFixturesDir } from "../helpers/transcripts.ts";

const CODEX = "codex/agtrace__rollout-2025-12-10T04-55-16-019b04ae-b1c6-7c72-a134-a4c2de66058c.jsonl";
const PI = "pi/pi-mono__large-session.jsonl";
const CLAUDE = "claude/episodic-memory__large-conversation.jsonl";

let index: TempIndex;
let reported: TempIndex;
beforeAll(() => {
  index = tempIndex("cairn-open-failures-", [join(realFixturesDir(), CODEX)]);
  reported = tempIndex("cairn-reported-failures-", [join(realFixturesDir(), PI), join(realFixturesDir(), CLAUDE)]);
});
afterAll(() => {
  index.remove();
  reported.remove();
});

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

  it("leads whether something worked with what the request's outcome rests on", async () => {
    const app = createCairn({ db: index.db, env: { HOME: index.dir } });
    try {
      const { hits } = await app.search({ query: "did running hoge.py work in the end", limit: 10 });
      const led = hits.filter((h) => h.why === "what the request's outcome rests on");
      expect(led.length).toBeGreaterThan(0);
      expect(hits[0]).toBe(led[0]);
      // each is an event an outcome of this session names as its evidence or its reply
      const outcomes = (await app.search({ query: "kind:outcome", limit: 50 })).hits.map(
        (h) => app.reader().getEventHead(h.event_id, 0)!.meta,
      );
      const named = new Set(outcomes.flatMap((m) => [...((m["evidence"] as string[]) ?? []), m["reply"]]));
      for (const h of led) expect(named.has(h.event_id)).toBe(true);
      // a short page is answered the same way: the first ten hits are read whatever the page's size
      const short = await app.search({ query: "did running hoge.py work in the end", limit: 2 });
      expect(short.hits.map((h) => h.event_id)).toEqual(hits.slice(0, 2).map((h) => h.event_id));
      const plain = await app.search({ query: "hoge.py", limit: 10 });
      expect(plain.hits.every((h) => h.why !== "what the request's outcome rests on")).toBe(true);
    } finally {
      app.close();
    }
  });

  it("leads with what the person reported broken before the agent's own tool errors", async () => {
    const app = createCairn({ db: reported.db, env: { HOME: reported.dir } });
    try {
      const failedOutcomes = (await app.search({ query: "kind:outcome", limit: 500 })).hits
        .map((h) => app.reader().getEventHead(h.event_id, 0)!.meta)
        .filter((m) => m["outcome"] === "failed");
      const evidence = new Set(failedOutcomes.flatMap((m) => (m["evidence"] as string[]) ?? []));
      // pi: the user's "this exploded when i restarted" follows a request about a custom theme
      const crash = await app.search({ query: "what was still crashing with custom themes at the end", limit: 10 });
      expect(crash.hits[0]!.event_type).toBe("user_message");
      expect(evidence.has(crash.hits[0]!.event_id)).toBe(true);
      expect(crash.hits[0]!.why).toBe("a failure of the session's ledger");
      // Claude: the session runs in a worktree named "streaming"; a word of the working directory names no failure,
      // so the CI question is answered by the request that names CI
      const ci = await app.search({ query: "what was still failing in ci at the end", limit: 10 });
      expect(ci.hits[0]!.snippet.toLowerCase()).toMatch(/\bci\b/);
      expect(ci.hits[0]!.why).toBe("a failure of the session's ledger");
    } finally {
      app.close();
    }
  });
});
