/**
 * A session as a conversation, on what pi's own CLI wrote (a session, its fork, a subagent): each call with its
 * result in one block, a fork's copy of its parent folded above where it began, and `at` finding the block of
 * any event, a derived one included.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { conversation } from "../../src/app/conversation.ts";
import { type TempIndex, tempIndex, withStore } from "../helpers/temp-index.ts";

const PI = join(import.meta.dirname, "..", "fixtures", "clients", "pi", "1.6.0", "home");
let index: TempIndex;

beforeAll(() => {
  index = tempIndex("cairn-conversation-", [PI]);
});
afterAll(() => index?.remove());

describe("conversation", () => {
  it("folds what a fork copied from its parent above where the fork began", () => {
    withStore(index.db, (store) => {
      const fork = store.listSessions({ kinds: ["fork"] })[0]!;
      expect(fork.parent_session_id).not.toBeNull();
      const c = conversation(store, { session: fork.session_id });
      const [first, ...rest] = c.items;
      expect(first?.kind).toBe("inherited");
      if (first?.kind !== "inherited") return;
      expect(first.from?.session_id).toBe(fork.parent_session_id);
      expect(first.items.every((i) => (i.time ?? "") < fork.started_at!)).toBe(true);
      // What follows is the fork's own: nothing before its start.
      expect(rest.length).toBeGreaterThan(0);
      expect(rest.every((i) => i.time === null || i.time >= fork.started_at!)).toBe(true);
    });
  });

  it("puts a call and its result in one block, and finds the block of a derived event", () => {
    withStore(index.db, (store) => {
      const main = store.listSessions({ kinds: ["main"] }).sort((a, b) => b.event_count - a.event_count)[0]!;
      const events = store.sessionEvents(main.session_id);
      const check = events.find((e) => e.event_type === "test_result")!;
      const c = conversation(store, { session: main.session_id, at: check.event_id });
      const block = c.items.find((i) => i.kind === "tool" && i.event_id === c.focus);
      expect(block?.kind).toBe("tool");
      if (block?.kind !== "tool") return;
      expect(block.marks.map((m) => m.event_id)).toContain(check.event_id);
      expect(block.output).not.toBeNull();
      const results = events.filter((e) => e.event_type === "tool_result" && e.parent_event_id);
      const tools = c.items.filter((i) => i.kind === "tool");
      expect(tools.length).toBeGreaterThanOrEqual(results.length);
    });
  });
});
