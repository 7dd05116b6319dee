/**
 * The PostgreSQL store: the same `Store` the SQLite one is, over a connection run in a worker thread
 * (`bridge.ts`). Writers of several machines share one database: each writes under its own identity (file
 * bookkeeping keyed by machine and path), and every write transaction first takes one advisory lock, so writers
 * take turns group by group instead of deadlocking on the entities and edges their files share.
 */
import { CairnError } from "../../common/errors.ts";
import { derivedEventId } from "../../topology/ids.ts";
import type { TopologyBatch } from "../../topology/normalizer-state.ts";
import type { Problem, SessionEvent } from "../../topology/types.ts";
import type { EventHit, EventQuery } from "../query-types.ts";
import { prepareBatch } from "../shared/prepare-batch.ts";
import type { CheckpointRow, ReadonlyStore, SessionRow, Store } from "../types.ts";
import { connectPg, type PgConnection, redactUrl } from "./bridge.ts";
import { createPgBundles, type PgBundles } from "./bundles.ts";
import { createPgPurge } from "./purge.ts";
import { createPgReader, PG_EVENT_COLUMNS, PG_SESSION_SELECT, pgEvent, pgSession } from "./read.ts";
import { dropFullTextIndexes, enablePgRum, hasPgRum } from "./rum.ts";
import { PG_MIGRATIONS, PG_SCHEMA_VERSION } from "./schema.ts";
import { createPgSearch } from "./search.ts";
import { createPgThreadReads } from "./threads.ts";
import { enablePgTrgm, hasPgTrgm } from "./trgm.ts";
import { enablePgVector, hasPgVector } from "./vector.ts";
import { createPgWriter, type Identity } from "./write.ts";

export type { Identity } from "./write.ts";

/** The advisory lock every write transaction holds (one number for cairn's writers). */
const WRITE_LOCK = 0x636169726e;

export { isPgUrl } from "./url.ts";

export interface PgStore extends Store, Pick<PgBundles, "putSessionBundles"> {
  readonly identity: Identity;
  /**
   * Runs a large load with the full-text and trigram indexes dropped, and builds them once after (also when `fn`
   * throws; a killed load leaves that to the next writer that opens the index).
   */
  bulkLoad<T>(fn: () => T): T;
}

export function openPgStore(url: string, me: Identity, opts: { readonly: true }): ReadonlyStore & { close(): void };
export function openPgStore(url: string, me: Identity, opts?: { readonly?: boolean }): PgStore;
export function openPgStore(url: string, me: Identity, opts: { readonly?: boolean } = {}): PgStore {
  const db = connectPg(url);
  try {
    if (opts.readonly) checkVersion(db, url);
    else migrate(db);
  } catch (error) {
    db.close();
    throw error;
  }
  const reader = createPgReader(db);
  const writer = createPgWriter(db, me);
  let depth = 0;
  let group = false;
  const begin = () => db.many([{ sql: "BEGIN" }, { sql: `SELECT pg_advisory_xact_lock(${WRITE_LOCK})` }]);
  function transaction<T>(fn: () => T): T {
    const outer = depth === 0 && !group;
    const name = `s${depth}`;
    if (outer) begin();
    else db.query(`SAVEPOINT ${name}`);
    depth++;
    try {
      const out = fn();
      depth--;
      db.query(outer ? "COMMIT" : `RELEASE SAVEPOINT ${name}`);
      return out;
    } catch (error) {
      depth--;
      db.query(outer ? "ROLLBACK" : `ROLLBACK TO SAVEPOINT ${name}`);
      throw error;
    }
  }
  const pgvector = opts.readonly ? hasPgVector(db) : enablePgVector(db);
  const rum = opts.readonly ? hasPgRum(db) : enablePgRum(db, WRITE_LOCK);
  const trgm = opts.readonly ? hasPgTrgm(db) : enablePgTrgm(db, WRITE_LOCK);
  return {
    path: redactUrl(url),
    identity: me,
    ...reader,
    ...writer,
    ...withHeadPrefetch(db, reader, createPgSearch(db, { rum, trgm })),
    ...createPgThreadReads(db),
    ...createPgBundles({ db, transaction, pgvector }),
    ...createPgPurge(db),
    transaction,
    beginGroup() {
      if (group || depth > 0) return;
      begin();
      group = true;
    },
    commitGroup() {
      if (!group) return;
      group = false;
      db.query("COMMIT");
    },
    rollbackGroup() {
      if (!group) return;
      group = false;
      db.query("ROLLBACK");
    },
    inGroup: () => group || depth > 0,
    bulkLoad<T>(fn: () => T): T {
      // With the indexes, fresh statistics: until autovacuum samples the loaded table, the planner and the facet
      // choice (stats.ts) would judge it by what it held before (at 104,000 events loaded, `cmd:"npm run check"`
      // took 24 ms of CPU before ANALYZE and 5 after). An owner's ANALYZE of a million events takes a few seconds.
      const rebuild = () => {
        enablePgRum(db, WRITE_LOCK);
        enablePgTrgm(db, WRITE_LOCK);
        db.query("ANALYZE session_events");
      };
      dropFullTextIndexes(db, WRITE_LOCK);
      let out: T;
      try {
        out = fn();
      } catch (error) {
        try {
          rebuild();
        } catch {
          // the connection may be what failed: the next writer rebuilds them
        }
        throw error;
      }
      rebuild();
      return out;
    },
    pruneGone() {
      const out = { files: 0, sessions: 0, events: 0 };
      for (const f of writer.goneFiles()) {
        out.sessions += f.sessions;
        out.events += writer.deleteFile(f.path);
        out.files++;
      }
      return out;
    },
    writeBatch(_sourceFile: string, batch: TopologyBatch, problems: Problem[]): void {
      writer.writePrepared(prepareBatch(batch, problems, { storedForms: false }));
    },
    putCheckpoint(row: CheckpointRow): void {
      db.query(
        `INSERT INTO checkpoints (checkpoint_id, session_id, event_id, step, label, created_at) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (checkpoint_id) DO UPDATE SET event_id = excluded.event_id, step = excluded.step, label = excluded.label,
           created_at = excluded.created_at`,
        [row.checkpoint_id, row.session_id, row.event_id, row.step, row.label, row.created_at],
      );
    },
    close: () => db.close(),
  };
}

/** The head length a search hit's evidence chain and outcome read (`search/search.ts`). */
const HIT_HEAD_CHARS = 400;
/** How long prefetched heads are served: the search that asked for them, not a later question. */
const PREFETCH_MS = 2_000;

/**
 * Every round trip costs about half a millisecond or more, and a page of search hits reads the heads of each hit's
 * parents (up to four steps), of its outcome and its session one by one. After a search, those are fetched in one
 * call (a recursive query for the chains) and served from memory for the rest of that search.
 */
function withHeadPrefetch(
  db: PgConnection,
  reader: ReturnType<typeof createPgReader>,
  searcher: ReturnType<typeof createPgSearch>,
) {
  let heads = new Map<string, SessionEvent>();
  let sessions = new Map<string, SessionRow>();
  let until = 0;
  return {
    searchEvents(q: EventQuery): EventHit[] {
      const hits = searcher.searchEvents(q);
      heads = new Map();
      sessions = new Map();
      if (hits.length === 0) return hits;
      const ids = hits.map((h) => h.event.event_id);
      const outcomes = hits
        .filter((h) => h.event.event_type === "user_message" && h.event.role === "user")
        .map((h) => derivedEventId(h.event.event_id, "outcome", 0));
      const [rows, sessionRows] = db.many([
        {
          // One array of ids, not IN (…) OR = ANY(…): an OR of the two made the planner scan every event.
          sql: `WITH RECURSIVE chain(event_id, parent_event_id, depth) AS (
           SELECT event_id, parent_event_id, 0 FROM session_events WHERE event_id = ANY($1::text[])
           UNION ALL
           SELECT p.event_id, p.parent_event_id, c.depth + 1 FROM chain c JOIN session_events p ON p.event_id = c.parent_event_id
           WHERE c.depth < 4)
         SELECT ${PG_EVENT_COLUMNS.replace("text", `substr(text, 1, ${HIT_HEAD_CHARS}) AS text`)} FROM session_events
         WHERE event_id = ANY(ARRAY(SELECT event_id FROM chain WHERE depth > 0) || $2::text[])`,
          params: [ids, outcomes],
        },
        {
          sql: `${PG_SESSION_SELECT} WHERE s.session_id = ANY($1::text[])`,
          params: [[...new Set(hits.map((h) => h.event.session_id))]],
        },
      ]) as [Array<Record<string, unknown>>, Array<Record<string, unknown>>];
      sessions = new Map(sessionRows.map((r) => [String(r["session_id"]), pgSession(r)]));
      for (const r of rows) heads.set(String(r["event_id"]), pgEvent(r as never));
      // An outcome not found is known to be absent too.
      for (const id of outcomes) if (!heads.has(id)) heads.set(id, null as never);
      until = Date.now() + PREFETCH_MS;
      return hits;
    },
    getSession(sessionId: string): SessionRow | undefined {
      return (Date.now() < until && sessions.get(sessionId)) || reader.getSession(sessionId);
    },
    getEventHead(eventId: string, chars: number): SessionEvent | undefined {
      if (chars === HIT_HEAD_CHARS && Date.now() < until && heads.has(eventId)) return heads.get(eventId) ?? undefined;
      return reader.getEventHead(eventId, chars);
    },
  };
}

function schemaVersion(db: PgConnection): number | null {
  const [row] = db.query<{ v: number | null }>(
    "SELECT CASE WHEN to_regclass('cairn_migrations') IS NULL THEN NULL ELSE (SELECT max(version) FROM cairn_migrations) END AS v",
  );
  return row?.v ?? null;
}

function checkVersion(db: PgConnection, url: string): void {
  const v = schemaVersion(db);
  if (v === null)
    throw new CairnError("no_index", `no cairn index in ${redactUrl(url)}`, "run 'cairn index --db <url>' first");
  if (v < PG_SCHEMA_VERSION)
    throw new CairnError(
      "index_unavailable",
      `the index in ${redactUrl(url)} is older than this cairn`,
      "run 'cairn index' to upgrade it",
    );
  if (v > PG_SCHEMA_VERSION)
    throw new CairnError(
      "index_unavailable",
      `the index in ${redactUrl(url)} was written by a newer cairn (schema ${v})`,
      "upgrade cairn",
    );
}

function migrate(db: PgConnection): void {
  // Two machines starting at once: the lock makes the second wait and then find the migrations done.
  db.many([
    { sql: "BEGIN" },
    { sql: `SELECT pg_advisory_xact_lock(${WRITE_LOCK})` },
    {
      sql: "CREATE TABLE IF NOT EXISTS cairn_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
    },
  ]);
  try {
    const done = new Set(db.query<{ version: number }>("SELECT version FROM cairn_migrations").map((r) => r.version));
    const newest = Math.max(0, ...done);
    if (newest > PG_SCHEMA_VERSION)
      throw new CairnError(
        "index_unavailable",
        `the team index was written by a newer cairn (schema ${newest})`,
        "upgrade cairn",
      );
    for (const m of PG_MIGRATIONS) {
      if (done.has(m.version)) continue;
      db.many([
        { sql: m.sql },
        {
          sql: "INSERT INTO cairn_migrations(version, name, applied_at) VALUES ($1, $2, $3)",
          params: [m.version, m.name, new Date().toISOString()],
        },
      ]);
    }
    db.query("COMMIT");
  } catch (error) {
    db.query("ROLLBACK");
    throw error;
  }
}
