/**
 * A store handle keeps each session's links between thread reads and reads again only the sessions that changed:
 * after sessions are added and one grows, its threads must be the ones a new handle, which scans every edge, finds.
 */
import { afterEach, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/sqlite/store.ts";
import { listThreads } from "../../src/threads/list.ts";
import { indexWork, sid, Work, type WorkIndex } from "./work.ts";

let open: WorkIndex | null = null;
afterEach(() => {
  open?.close();
  open = null;
});
const at = (h: number) => new Date(Date.UTC(2026, 0, 1, h)).toISOString();
const ids = (store: Parameters<typeof listThreads>[0]) =>
  listThreads(store, { includeSingle: true }).threads.map((t) => ({
    id: t.thread_id,
    sessions: t.sessions.map((s) => s.session_id),
    shared: t.shared.map((e) => e.display),
  }));

describe("threads read again after indexing", () => {
  it("match a fresh read once sessions are added and one grows", () => {
    const a = new Work("claude", sid("a"), { start: at(1) }).prompt("a").edit("src/auth/token.ts", "src/auth/a.ts");
    const b = new Work("codex", sid("b"), { start: at(2) }).prompt("b").edit("src/auth/token.ts");
    open = indexWork(a, b);
    const before = ids(open.store);
    expect(before.filter((t) => t.sessions.length > 1)).toEqual([]);

    // b now edits a second of a's files (its transcript grows), and c arrives sharing both.
    b.edit("src/auth/a.ts");
    const c = new Work("pi", sid("c"), { start: at(3) }).prompt("c").edit("src/ui/theme.ts");
    open.add(b, c);
    const after = ids(open.store);
    expect(after.filter((t) => t.sessions.length > 1).map((t) => t.sessions)).toEqual([[sid("a"), sid("b")]]);

    const fresh = openStore(open.db, { readonly: true });
    try {
      expect(after).toEqual(ids(fresh));
    } finally {
      fresh.close();
    }
  });
});
