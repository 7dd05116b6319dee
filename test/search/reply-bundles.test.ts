/** Replies that report to the user are embedded; lead-ins to a tool call and reasoning are not. */
import { describe, expect, it } from "vitest";
import { buildBundle, showsBundle } from "../../src/store/shared/bundle-text.ts";
import type { SessionEvent } from "../../src/topology/types.ts";

function reply(text: string, meta: Record<string, unknown> = {}): SessionEvent {
  return {
    event_id: "r1",
    session_id: "s1",
    provider: "pi",
    ordinal: 5,
    timestamp: null,
    role: "assistant",
    event_type: "assistant_message",
    text,
    tool_name: null,
    command: null,
    file_path: null,
    status: null,
    parent_event_id: null,
    source_file: "/s.jsonl",
    source_line: 3,
    turn: 1,
    tokens: 10,
    meta,
  };
}

const report =
  "Done. The exporter now writes one CSV file per table, with a header row, and the tests pass. I kept the writer synchronous because the files are small and a stream would only add code.";

describe("reply bundles", () => {
  it("a reply that reports is a bundle of its own, and meaning can judge it", () => {
    const r = reply(report);
    expect(showsBundle(r)).toBe(true);
    expect(buildBundle(7, r, () => undefined)).toMatchObject({ kind: "reply", event_id: "r1", text: report });
  });

  it("a lead-in to a tool call, a short line and the agent's reasoning are not", () => {
    for (const r of [
      reply(`${report} Let me check the remaining tables:`),
      reply("Let me check the config."),
      reply(report, { reasoning: true }),
    ]) {
      expect(showsBundle(r)).toBe(false);
      expect(buildBundle(7, r, () => undefined)).toBeNull();
    }
  });
});
