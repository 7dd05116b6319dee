/**
 * The event view's answer (`eventChain`) on every event the agents' own CLIs wrote: a subagent's first message
 * points at a parent in its lead's transcript that this index may not hold, and the answer is still the event asked
 * for, with the chain up to where the index has it.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createCairn, type ReadCairn } from "../../src/app/cairn.ts";
import { type TempIndex, tempIndex } from "../helpers/temp-index.ts";
import { REPO } from "../helpers/transcripts.ts";

const CLIENTS = join(REPO, "test", "fixtures", "clients");
let index: TempIndex;
let app: ReadCairn;

beforeAll(() => {
  const homes = readdirSync(CLIENTS, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => readdirSync(join(CLIENTS, d.name)).map((v) => join(CLIENTS, d.name, v, "home")));
  index = tempIndex("cairn-event-chain-", homes);
  app = createCairn({ db: index.db, env: {} });
}, 120_000);
afterAll(() => {
  app?.close();
  index?.remove();
});

it("answers every event of every session, subagents included, naming the event asked for", () => {
  const sessions = app.sessions({ all: true, limit: 1000 });
  expect(sessions.some((s) => s.kind === "subagent")).toBe(true);
  let missingParents = 0;
  for (const s of sessions)
    for (const row of app.timeline({ session: s.session_id, all: true, limit: 5000 }).rows) {
      const answer = app.eventChain(row.event_id);
      expect(answer.event.event_id).toBe(row.event_id);
      expect(answer.session.session_id).toBe(s.session_id);
      const parent = answer.event.parent_event_id;
      if (parent && answer.chain.length === 0) missingParents++;
    }
  // the case the view used to crash on is among them
  expect(missingParents).toBeGreaterThan(0);
});
