import { describe, expect, it } from "vitest";
import { derivedEventId, eventId, hash64, sessionIdHasher } from "../../src/topology/ids.ts";

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
  it("do not collide over a million keys of one session, and a session's ids share a prefix", () => {
    const hash = sessionIdHasher("pi", "019e963d-6bd6-7ade-8a49-256ac3391bdd");
    const seen = new Set<string>();
    for (let i = 0; i < 1_000_000; i++) seen.add(hash(`L${i}`));
    expect(seen.size).toBe(1_000_000);
    expect(new Set([...seen].map((id) => id.slice(0, 4))).size).toBe(1);
    expect(hash("L7")).toBe(eventId("pi", "019e963d-6bd6-7ade-8a49-256ac3391bdd", "L7"));
    expect(derivedEventId(hash("L7"), "error", 0).slice(0, 4)).toBe(hash("L7").slice(0, 4));
  });
  it("are pinned: a change here changes every stored id, so it must be deliberate", () => {
    expect(hash64("")).toBe("488bdcb81aee8d83");
    expect(hash64("abc")).toBe("8791c5d736303cb3");
  });
});
