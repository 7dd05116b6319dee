/**
 * The redacting view every answer is read through: on a real Claude Code transcript with planted secrets, no read
 * of the store hands out a piece of a planted value, whatever cuts it (a head read that stops inside a key), and
 * whatever repeats it (a derived command, a title); the raw store still has them.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedaction } from "../../src/app/shape/redacting-view.ts";
import { indexPaths } from "../../src/indexer/indexer.ts";
import { openStore } from "../../src/store/sqlite/store.ts";
import type { Store } from "../../src/store/types.ts";
import { realFixture } from "../helpers/transcripts.ts";
import { plantSecrets } from "../secrets/plant.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-redacting-view-"));
let store: Store;
let planted: string[] = [];
afterAll(() => {
  store?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The planted values of which `text` holds a 20-character piece (the whole of a shorter one). */
const pieces = (text: string) =>
  planted.filter((s) => {
    if (s.length < 20) return text.includes(s);
    for (let i = 0; i + 20 <= s.length; i++) if (text.includes(s.slice(i, i + 20))) return true;
    return false;
  });

beforeAll(() => {
  mkdirSync(join(dir, "t"));
  const file = join(dir, "t", "s.jsonl");
  copyFileSync(realFixture("claude/codemie__session-624a4a58.jsonl"), file);
  planted = plantSecrets(file);
  store = openStore(join(dir, "i.db"));
  indexPaths({ store, paths: [join(dir, "t")], parallel: false });
}, 120_000);

describe("the redacting view", () => {
  it("redacts every read of a session's events, and the raw store keeps the values", () => {
    const view = createRedaction(store).view;
    const [session] = store.listSessions({});
    const rawEvents = store.sessionEvents(session!.session_id);
    const raw = `${rawEvents.map((e) => e.text).join("\n")}${JSON.stringify(rawEvents)}`;
    expect(pieces(raw).length).toBe(planted.length);
    const events = view.sessionEvents(session!.session_id);
    const seen = `${events.map((e) => e.text).join("\n")}${JSON.stringify(events)}`;
    expect(pieces(seen)).toEqual([]);
    expect(seen).toContain("[secret:");
    expect(pieces(JSON.stringify(view.listSessions({})))).toEqual([]);
    const hits = view.searchEvents({ match: null, secrets: true, limit: 100 });
    expect(hits.length).toBeGreaterThan(0);
    expect(pieces(JSON.stringify(hits))).toEqual([]);
  });

  it("a head read that stops inside a secret ends in its marker, not in part of the value", () => {
    const view = createRedaction(store).view;
    for (const finding of store.secretSpans()) {
      for (const [at, len] of finding.spans) {
        for (const cut of [at + 1, at + Math.min(20, len - 1), at + len - 3, at + len]) {
          const head = view.getEventHead(finding.event_id, cut)!;
          expect(pieces(head.text), `${finding.secret} cut at ${cut}`).toEqual([]);
          expect(head.text.endsWith("]")).toBe(true);
        }
      }
    }
  });

  it("events derived from a secret's event and texts read from elsewhere lose the values too", () => {
    const redaction = createRedaction(store);
    const [finding] = store.secretSpans();
    const event = store.getEvent(finding!.event_id)!;
    for (const child of store.listSessions({}).flatMap((s) => store.sessionEvents(s.session_id)))
      if (child.parent_event_id === event.event_id)
        expect(pieces(JSON.stringify(redaction.view.getEvent(child.event_id)))).toEqual([]);
    expect(pieces(redaction.sessionText(event.session_id, JSON.stringify(event)))).toEqual([]);
  });

  // Last: it rewrites the index.
  it("after a purge rewrote the text, the stale spans are not applied: the text reads as purged", () => {
    const ids = store.secretSpans().map((f) => f.event_id);
    store.redactEvents(ids);
    const view = createRedaction(store).view;
    for (const id of ids) {
      const text = view.getEvent(id)!.text;
      expect(text).toBe(store.getEvent(id)!.text);
      expect(pieces(text)).toEqual([]);
    }
  });
});
