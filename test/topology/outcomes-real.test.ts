/**
 * "Abandoned before any work" is said only of a request nothing was done for: no tool call, no reply of substance.
 * Checked on real sessions of several agents (published transcripts and what each agent's own CLI wrote).
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compareVersions } from "../../scripts/clients/install.ts";
import { inspectPaths } from "../../src/indexer/inspect.ts";
import type { SessionEvent } from "../../src/topology/types.ts";
import { REPO, realFixture } from "../helpers/transcripts.ts";

const clients = ["claude", "codex", "pi", "gemini", "opencode", "qwen"].map((agent) => {
  const versions = readdirSync(join(REPO, "test/fixtures/clients", agent)).sort(compareVersions);
  return join(REPO, "test/fixtures/clients", agent, versions[versions.length - 1]!, "home");
});
const { events } = inspectPaths([realFixture("claude"), realFixture("codex"), realFixture("pi"), ...clients], REPO);
const outcomes = events.filter((e) => e.event_type === "outcome");

/** The events between a request and the next request of its session. */
function turnOf(request: string): SessionEvent[] {
  const req = events.find((e) => e.event_id === request)!;
  const after = events
    .filter((e) => e.session_id === req.session_id && e.ordinal > req.ordinal)
    .sort((a, b) => a.ordinal - b.ordinal);
  const end = after.findIndex((e) => e.event_type === "user_message" && e.role === "user" && e.turn !== req.turn);
  return end < 0 ? after : after.slice(0, end);
}

const words = (text: string) => text.split(/\s+/).filter((w) => /\p{L}/u.test(w)).length;

describe("abandoned requests", () => {
  it("are 'before any work' only where no tool ran and the agent said nothing of substance", () => {
    const before = outcomes.filter((o) => o.meta["why"] === "the user moved on before any work");
    for (const o of before) {
      const turn = turnOf(o.parent_event_id!);
      expect(
        turn.filter((e) => e.event_type === "tool_call"),
        o.text,
      ).toEqual([]);
      for (const m of turn.filter((e) => e.event_type === "assistant_message" && e.meta["reasoning"] !== true))
        expect(words(m.text), o.text).toBeLessThan(8);
    }
  });

  it("a request the agent looked into and answered is done, not abandoned (pi's large session)", () => {
    const pi = outcomes.filter((o) => o.session_id.startsWith("d703a1a9"));
    const of = (asked: string) => pi.find((o) => o.text.includes(asked))!;
    // The agent wrote the markdown asked for, without a tool: answered.
    expect(of("write some markdown here in chat").status).toBe("done");
    // It read tui-renderer.ts and grepped it, then the person stopped it: cut off, not "before any work".
    expect(of("only one file left to fix up").meta["why"]).toBe("cut off mid-work");
    expect(pi.filter((o) => o.status === "abandoned").length).toBeLessThan(13);
  });
});
