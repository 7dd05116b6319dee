/**
 * Short session ids on the files the agents' own CLIs wrote: Codex and pi make time-ordered ids (two sessions of
 * the same minute share their first 8 digits) and a Claude subagent's id begins with its parent's. The short form
 * cairn prints of each session resolves to that session, and a parent's 8 characters name the parent.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createShortIds } from "../../src/app/shape/short-ids.ts";
import { resolveSessionId, shortSessionId } from "../../src/store/resolve.ts";
import { openStore } from "../../src/store/sqlite/store.ts";
import type { Store } from "../../src/store/types.ts";
import { type TempIndex, tempIndex } from "../helpers/temp-index.ts";
import { REPO } from "../helpers/transcripts.ts";

const CLIENTS = join(REPO, "test", "fixtures", "clients");
let index: TempIndex;
let store: Store;

beforeAll(() => {
  const homes = readdirSync(CLIENTS, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => readdirSync(join(CLIENTS, d.name)).map((v) => join(CLIENTS, d.name, v, "home")));
  index = tempIndex("cairn-short-ids-", homes);
  store = openStore(index.db);
}, 120_000);
afterAll(() => {
  store?.close();
  index?.remove();
});

it("every session's short id resolves to it, on every agent's own files", () => {
  const sessions = store.listSessions({});
  expect(new Set(sessions.map((s) => s.provider)).size).toBeGreaterThanOrEqual(8);
  const sharing = sessions.filter((s) =>
    sessions.some((o) => o !== s && o.session_id.slice(0, 8) === s.session_id.slice(0, 8)),
  );
  // the case that broke 8-character ids is in the fixtures: without it this test would prove little
  expect(sharing.length).toBeGreaterThanOrEqual(2);
  for (const s of sessions) {
    const short = shortSessionId(store, s.session_id);
    expect(resolveSessionId(store, short).session_id, short).toBe(s.session_id);
  }
});

it("a parent's first 8 characters name the parent, not 'several sessions' with its subagents", () => {
  const subagents = store.listSessions({ kinds: ["subagent"] });
  const parents = subagents.filter((s) => s.session_id.startsWith(`${s.parent_session_id}:`));
  expect(parents.length).toBeGreaterThan(0);
  for (const sub of parents) {
    const parent = store.getSession(sub.parent_session_id!)!;
    const unrelated = store
      .listSessions({ idPrefix: parent.session_id.slice(0, 8) })
      .filter((s) => s.session_id !== parent.session_id && s.parent_session_id !== parent.session_id);
    if (unrelated.length > 0) continue;
    expect(shortSessionId(store, parent.session_id)).toBe(parent.session_id.slice(0, 8));
    expect(resolveSessionId(store, parent.session_id.slice(0, 8)).session_id).toBe(parent.session_id);
  }
});

it("an answer naming many sessions shortens each as one naming a few does (the index read once)", () => {
  const sessions = store.listSessions({});
  expect(sessions.length).toBeGreaterThan(40);
  const many = createShortIds(() => store).forAnswer();
  for (const s of sessions) expect(many(s.session_id), s.session_id).toBe(shortSessionId(store, s.session_id));
});
