import { describe, expect, it } from "vitest";
import type { RecallBriefRequest, RecallSearchRequest, RecallSource } from "../../../src/pi/recall/recall-source.ts";
import { formatHits, registerRecallTools } from "../../../src/pi/recall/recall-tools.ts";
import { createExtensionForTest } from "../helpers/extension.ts";
import { createFakeContext } from "../helpers/fake-pi.ts";
import { createTestState } from "../helpers/test-state.ts";

function fakeRecall(): RecallSource & { searches: RecallSearchRequest[]; briefs: RecallBriefRequest[] } {
  const searches: RecallSearchRequest[] = [];
  const briefs: RecallBriefRequest[] = [];
  return {
    searches,
    briefs,
    async search(request) {
      searches.push(request);
      const hits = [
        {
          eventId: "ev-42",
          sessionId: "s-1",
          provider: "claude-code",
          timestamp: "2026-11-01T10:00:00Z",
          kind: "error",
          snippet: "TypeError: x is undefined",
          evidence: ["ev-41"],
        },
      ];
      return { hits, meaningBy: "model:minilm-l6@c9745ed1d9f2:int8:7739478b" };
    },
    async resumeBrief(request) {
      briefs.push(request);
      return { markdown: "## Resume\n- Goal [e:ev-1]", citedEventIds: ["ev-1"] };
    },
  };
}

describe("recall tools", () => {
  it("search returns hits cited by event id, including the evidence chain", async () => {
    const source = fakeRecall();
    const { pi, state } = createTestState({ recall: source });
    registerRecallTools(pi.api, state);
    const { ctx } = createFakeContext({ cwd: "/work/repo" });
    const result = await pi.tools.get("cairn_search")?.run({ query: "error:TypeError", limit: 500 }, ctx);
    expect(source.searches).toEqual([{ query: "error:TypeError", limit: 50, cwd: "/work/repo" }]);
    expect(result?.content).toEqual([
      {
        type: "text",
        text: '1 hit(s) for "error:TypeError" (meaning judged by model:minilm-l6@c9745ed1d9f2:int8:7739478b):\n[e:ev-42] 2026-11-01T10:00:00Z claude-code session s-1 error: TypeError: x is undefined (evidence: [e:ev-41])',
      },
    ]);
    expect(result?.details).toEqual({ eventIds: ["ev-42"] });
  });

  it("resume brief defaults to the current session and passes the budget", async () => {
    const source = fakeRecall();
    const { pi, state } = createTestState({ recall: source });
    registerRecallTools(pi.api, state);
    const { ctx, session } = createFakeContext();
    const current = await pi.tools.get("cairn_resume_brief")?.run({ budget_tokens: 800 }, ctx);
    await pi.tools.get("cairn_resume_brief")?.run({ session: "s-9" }, ctx);
    expect(source.briefs).toEqual([
      {
        cwd: "/project",
        budgetTokens: 800,
        ...(session.getSessionFile() ? { sessionFile: session.getSessionFile() } : {}),
      },
      { cwd: "/project", sessionId: "s-9" },
    ]);
    expect(current).toEqual({
      content: [{ type: "text", text: "## Resume\n- Goal [e:ev-1]" }],
      details: { citedEventIds: ["ev-1"] },
    });
  });

  it("says so when nothing matches", () => {
    expect(formatHits("zzz", [])).toBe('No indexed events match "zzz".');
  });

  it("are registered only when a recall source is given", () => {
    expect([...createExtensionForTest({}).pi.tools.keys()]).not.toContain("cairn_search");
    expect([...createExtensionForTest({ recall: fakeRecall() }).pi.tools.keys()]).toEqual(
      expect.arrayContaining(["cairn_search", "cairn_resume_brief"]),
    );
  });
});
