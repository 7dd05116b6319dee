import { describe, expect, it } from "vitest";
import { derivedEventId, eventId, hash64 } from "../../src/topology/ids.ts";

describe("ids", () => {
  it("are 16 hex digits, deterministic, and differ when any part differs", () => {
    const a = eventId("claude", "s1", "u1");
    expect(a).toMatch(/^[0-9a-f]{16}$/);
    expect(eventId("claude", "s1", "u1")).toBe(a);
    expect(
      new Set([
        a,
        eventId("codex", "s1", "u1"),
        eventId("claude", "s2", "u1"),
        eventId("claude", "s1", "u2"),
        derivedEventId(a, "error", 0),
        derivedEventId(a, "error", 1),
      ]).size,
    ).toBe(6);
  });
  it("do not collide over a million sequential keys", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 1_000_000; i++) seen.add(hash64(`pi\u0000019e963d-6bd6-7ade-8a49-256ac3391bdd\u0000L${i}`));
    expect(seen.size).toBe(1_000_000);
  });
  it("are pinned: a change here changes every stored id, so it must be deliberate", () => {
    expect(hash64("")).toBe("488bdcb81aee8d83");
    expect(hash64("abc")).toBe("8791c5d736303cb3");
  });
});
