/**
 * The texts of bundles that keep only their digest (embedded ones, migration 19), built again from their events
 * the way the indexer built them (`refreshVectors`): the anchor read as its two ends, the events it hangs off as
 * their heads. What a bundle shows stays the same, so the text comes out as it went to the embedder.
 */
import type Database from "better-sqlite3";
import type { SessionEvent } from "../../topology/types.ts";
import { BUNDLE_END_CHARS } from "../bundle-types.ts";
import { buildBundle } from "../shared/bundle-text.ts";
import { endsOf, headOf } from "./codec-sql.ts";
import { once } from "./lazy.ts";
import { eventColumns, toEvent } from "./read.ts";

type Row = Parameters<typeof toEvent>[0];

export function createBundleTexts(db: Database.Database): (anchors: readonly number[]) => Map<number, string> {
  const anchorsOf = once(() =>
    db.prepare(
      `SELECT e.rowid AS anchor_rowid, ${eventColumns("e", { text: endsOf("e.text", BUNDLE_END_CHARS) })}
       FROM session_events e WHERE e.rowid IN (SELECT value FROM json_each(?))`,
    ),
  );
  const headOfEvent = once(() =>
    db.prepare(
      `SELECT ${eventColumns("e", { text: headOf("e.text", "@chars") })} FROM session_events e WHERE event_id = @id`,
    ),
  );
  return (anchors) => {
    const out = new Map<number, string>();
    if (anchors.length === 0) return out;
    const cache = new Map<string, SessionEvent | undefined>();
    const lookup = (id: string) => {
      if (!cache.has(id)) {
        const row = headOfEvent().get({ chars: BUNDLE_END_CHARS, id }) as Row | undefined;
        cache.set(id, row ? (toEvent(row) as SessionEvent) : undefined);
      }
      return cache.get(id);
    };
    const rows = anchorsOf().all(JSON.stringify(anchors)) as Array<Row & { anchor_rowid: number }>;
    for (const { anchor_rowid, ...row } of rows)
      out.set(anchor_rowid, buildBundle(anchor_rowid, toEvent(row) as SessionEvent, lookup)?.text ?? "");
    return out;
  };
}
