/** Writes of the index: topology batches, file states, and per-session totals. */
import type Database from "better-sqlite3";
import type { TopologyBatch } from "../../topology/normalizer-state.ts";
import type { Problem } from "../../topology/types.ts";
import { TOPOLOGY_VERSION } from "../../topology/version.ts";
import {
  EVENT_INSERT_COLUMNS,
  type EventValues,
  type PreparedBatch,
  prepareBatch,
  type StoredForms,
} from "../shared/prepare-batch.ts";
import { decodeStored, encodeStored, sameStored } from "../shared/text-codec.ts";
import { USAGE_COLUMNS, USAGE_GENERATION } from "../shared/usage-rows.ts";
import type { FileStamp, FileState } from "../types.ts";
import { once } from "./lazy.ts";
import { createRunWriter, isRunRef, runnable } from "./meta-runs.ts";
import { BUNDLE_ANCHOR_TYPES } from "./schema.ts";
import { createSessionScopes } from "./session-rows.ts";
import { FILE_STAMPS_SQL, type FileStampRow, fileStampsFrom } from "./stamps.ts";

/**
 * An event's values in the forms the store keeps (a copy: the batch stays as it came): text and meta as
 * `stored` has them, and the path of the file it was read from as '' when that is its session's file, which
 * every read puts back (read.ts `eventColumns`): the path was 7 % of the pi corpus's index, repeated on each row.
 */
function storedValues(values: EventValues, stored: StoredForms | undefined, sessionFile: string | undefined) {
  const ownFile = sessionFile !== undefined && values[FILE_AT] === sessionFile;
  if (stored === undefined && !ownFile) return values;
  const out = values.slice();
  if (stored?.text !== undefined) out[TEXT_AT] = stored.text;
  if (stored?.meta !== undefined) out[META_AT] = stored.meta;
  if (ownFile) out[FILE_AT] = "";
  return out;
}
/**
 * A file's reader state as the row keeps it: compressed like a large text (a Claude Code file's state, the
 * messages still open and the calls awaiting results, averaged 11 KB: 8 % of that corpus's index).
 */
function storedState(file: FileState): string | Buffer | null {
  return file.state ? encodeStored(JSON.stringify(file.state)) : null;
}

/** A copy of `values` with one value replaced. */
function withAt(values: EventValues, at: number, value: unknown): EventValues {
  const out = values.slice();
  out[at] = value;
  return out;
}
const TEXT_AT = EVENT_INSERT_COLUMNS.indexOf("text");
const META_AT = EVENT_INSERT_COLUMNS.indexOf("meta");
const FILE_AT = EVENT_INSERT_COLUMNS.indexOf("source_file");
const SESSION_AT = EVENT_INSERT_COLUMNS.indexOf("session_id");

export function createWriter(db: Database.Database) {
  // Insert first and update on conflict in a second statement: an upsert with RETURNING cost more than the
  // insert itself, and conflicts (a message re-stated, a file read again) are rare. Text bound as UTF-8 bytes (a
  // large text from the parse worker) is stored as text by the cast; a compressed text is bound as a BLOB, so it
  // goes through the statements without the cast.
  const eventStatements = (cast: boolean) => {
    const param = (c: string) => (cast && c === "text" ? "CAST(? AS TEXT)" : "?");
    return {
      insert: once(() =>
        db.prepare(
          `INSERT INTO session_events (${EVENT_INSERT_COLUMNS.join(", ")}, sk, mr) VALUES (${EVENT_INSERT_COLUMNS.map(param).join(", ")}, ?, ?)
     ON CONFLICT(event_id) DO NOTHING`,
        ),
      ),
      // The insert's values without the id, then the id; a re-stated event keeps a parent edge it had.
      update: once(() =>
        db.prepare(`
    UPDATE session_events SET ${EVENT_INSERT_COLUMNS.slice(1)
      .map((c) => (c === "parent_edge" ? "parent_edge = coalesce(?, parent_edge)" : `${c} = ${param(c)}`))
      .join(", ")}
    WHERE event_id = ?`),
      ),
    };
  };
  const runs = createRunWriter(db);
  const leaveRun = once(() => db.prepare("UPDATE session_events SET mr = NULL WHERE rowid = ?"));
  const storedRows = eventStatements(false);
  const byteRows = eventStatements(true);
  const textAt = TEXT_AT;
  // A row written before migration 17 gets its session's number when it is stated again.
  const setKey = once(() => db.prepare("UPDATE session_events SET sk = ? WHERE rowid = ?"));
  // What a re-stated event had: an identical restatement (the common case) changes nothing, and rewriting a
  // contentless FTS row costs half a millisecond.
  const current = once(() =>
    db.prepare(
      `SELECT rowid, sk, mr, ${EVENT_INSERT_COLUMNS.slice(1).join(", ")} FROM session_events WHERE event_id = ?`,
    ),
  );
  const insertFts = once(() =>
    db.prepare("INSERT INTO events_fts(rowid, text, idents, facets, stems) VALUES (?, ?, ?, ?, ?)"),
  );
  const replaceFts = once(() =>
    db.prepare("INSERT OR REPLACE INTO events_fts(rowid, text, idents, facets, stems) VALUES (?, ?, ?, ?, ?)"),
  );
  const queueBundle = once(() => db.prepare("INSERT OR IGNORE INTO bundle_queue(event_rowid) VALUES (?)"));
  const anchorTypes = new Set<unknown>(BUNDLE_ANCHOR_TYPES);
  const typeAt = EVENT_INSERT_COLUMNS.indexOf("event_type");
  const putEdge = once(() =>
    db.prepare(
      "INSERT INTO event_edges(src, dst, edge_type, session_id, meta) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
    ),
  );
  const putEntity = once(() =>
    // An error signature indexed before errors were shown as written is shown by its signature: the first line
    // read again replaces it.
    db.prepare(
      "INSERT INTO entities(entity_id, kind, key, display) VALUES (?, ?, ?, ?) ON CONFLICT(entity_id) DO UPDATE SET display = excluded.display WHERE entities.kind = 'error_signature' AND entities.display = entities.key",
    ),
  );
  const putProblem = once(() =>
    db.prepare(
      "INSERT INTO problems(source_file, source_line, reason, excerpt) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
    ),
  );
  // A line read again (a file rewritten in place, read from its start) states its calls again.
  const putUsage = once(() =>
    db.prepare(
      `INSERT OR REPLACE INTO usage_calls (${USAGE_COLUMNS.join(", ")}) VALUES (${USAGE_COLUMNS.map(() => "?").join(", ")})`,
    ),
  );
  const upsertSession = once(() =>
    db.prepare(`
    INSERT INTO sessions (session_id, provider, kind, cwd, project, title, started_at, updated_at, parent_session_id, git_branch, model, source_file, meta, sk)
    VALUES (@session_id, @provider, @kind, @cwd, @project, @title, @started_at, @updated_at, @parent_session_id, @git_branch, @model, @source_file, @meta,
      (SELECT coalesce(max(sk), 0) + 1 FROM sessions))
    ON CONFLICT(session_id) DO UPDATE SET provider = excluded.provider, kind = excluded.kind, cwd = excluded.cwd, project = excluded.project,
      title = excluded.title, started_at = excluded.started_at, updated_at = excluded.updated_at,
      parent_session_id = excluded.parent_session_id, git_branch = excluded.git_branch, model = excluded.model,
      source_file = excluded.source_file, meta = excluded.meta`),
  );
  const getFile = once(() => db.prepare("SELECT * FROM source_files WHERE path = ?"));
  const stamps = once(() => db.prepare(FILE_STAMPS_SQL));
  const putFile = once(() =>
    db.prepare(`
    INSERT INTO source_files(path, provider, size, mtime_ms, inode, head_hash, tail_hash, offset, line, state, indexed_at,
      topology_version)
    VALUES (@path, @provider, @size, @mtime_ms, @inode, @head_hash, @tail_hash, @offset, @line, @state, @indexed_at,
      ${TOPOLOGY_VERSION})
    ON CONFLICT(path) DO UPDATE SET provider = excluded.provider, size = excluded.size, mtime_ms = excluded.mtime_ms,
      inode = excluded.inode, head_hash = excluded.head_hash, tail_hash = excluded.tail_hash, offset = excluded.offset,
      line = excluded.line, state = excluded.state, indexed_at = excluded.indexed_at, gone_at = NULL,
      topology_version = excluded.topology_version`),
  );
  const setGone = once(() => db.prepare("UPDATE source_files SET gone_at = ? WHERE path = ?"));
  const goneFiles = once(() =>
    db.prepare(
      `SELECT path, gone_at, (SELECT count(*) FROM sessions s WHERE s.source_file = f.path) AS sessions
     FROM source_files f WHERE gone_at IS NOT NULL ORDER BY gone_at, path`,
    ),
  );
  // Run once the session points at the new path: its rows kept as '' then were given the old one (the trigger of
  // migration 15), and every row read from the moved file is the session's own again.
  const scopes = createSessionScopes(db);
  const moveEvents = scopes.statement(
    (s) => `UPDATE session_events SET source_file = '' WHERE ${s.of("session_events")} AND source_file = @from`,
  );
  const moveProblems = once(() => db.prepare("UPDATE problems SET source_file = @to WHERE source_file = @from"));
  // A file's usage rows through the table's own key, once per agent that has any (each has a generation, kept by
  // the triggers of migration 13): the index on the path alone cost 2 % of the pi index (migration 16).
  const ofFile = `provider IN (SELECT substr(key, ${USAGE_GENERATION.length + 1}) FROM settings
    WHERE key > '${USAGE_GENERATION}' AND key < '${USAGE_GENERATION}\uffff')`;
  const moveUsage = once(() =>
    db.prepare(`UPDATE usage_calls SET source_file = @to WHERE ${ofFile} AND source_file = @from`),
  );
  const moveSessions = once(() => db.prepare("UPDATE sessions SET source_file = @to WHERE source_file = @from"));
  // A file's events are its sessions' events (no index on source_file: it cost every insert for a rare delete).
  const sessionsOfFile = once(() => db.prepare("SELECT session_id FROM sessions WHERE source_file = ?"));
  const sessionRow = once(() => db.prepare("SELECT source_file, sk FROM sessions WHERE session_id = ?"));
  // Asked only for the sessions of the file: their rows kept as '' are that file's.
  const rowsOfSession = scopes.statement(
    (s) => `SELECT rowid, event_id FROM session_events e WHERE ${s.of("e")} AND source_file IN ('', ?)`,
  );
  const delEvent = once(() => db.prepare("DELETE FROM session_events WHERE rowid = ?"));
  const delFts = once(() => db.prepare("DELETE FROM events_fts WHERE rowid = ?"));
  const delEdgesFrom = once(() => db.prepare("DELETE FROM event_edges WHERE src = ? RETURNING dst"));
  const entityInUse = once(() => db.prepare("SELECT 1 FROM event_edges WHERE dst = ? LIMIT 1").pluck());
  const delEntity = once(() => db.prepare("DELETE FROM entities WHERE entity_id = ?"));
  const delProblems = once(() => db.prepare("DELETE FROM problems WHERE source_file = ?"));
  const delUsage = once(() => db.prepare(`DELETE FROM usage_calls WHERE ${ofFile} AND source_file = ?`));
  const delSessions = once(() => db.prepare("DELETE FROM sessions WHERE source_file = ?"));
  const delFile = once(() => db.prepare("DELETE FROM source_files WHERE path = ?"));
  // One pass over the session's rows through its own index (the planner would otherwise pick the event-type
  // index and count every event of that type in the database).
  const countKinds = scopes.statement(
    (s) => `SELECT event_type, role = 'user' AS typed, count(*) AS n FROM session_events e ${s.indexed}
    WHERE ${s.of("e")} GROUP BY event_type, typed`,
  );
  const setCounts = once(() =>
    db.prepare(`UPDATE sessions SET event_count = @events, prompt_count = @prompts, tool_count = @tools,
    error_count = @errors, test_count = @tests, resume_count = @resumes WHERE session_id = @id`),
  );

  function writePrepared(p: PreparedBatch): number {
    let added = 0;
    // The sessions first: an event is compared with its session's file as this batch leaves it, and carries the
    // session's number (migration 17).
    for (const s of p.sessions) upsertSession().run(s);
    const sessions = new Map<string, { source_file: string; sk: number } | undefined>();
    const sessionOf = (id: string) => {
      if (!sessions.has(id)) sessions.set(id, sessionRow().get(id) as { source_file: string; sk: number } | undefined);
      return sessions.get(id);
    };
    for (const e of p.edges) putEdge().run(...e);
    for (const event of p.events) {
      const { fts, stored } = event;
      // Text, meta and path are written, and compared, in the form the store keeps them (shared/text-codec.ts,
      // shared/packed-meta.ts, `storedValues`).
      const session = sessionOf(event.values[SESSION_AT] as string);
      const values = storedValues(event.values, stored, session?.source_file);
      const rows = values[textAt] instanceof Uint8Array && stored?.text === undefined ? byteRows : storedRows;
      const sk = session?.sk ?? null;
      // A new event's small meta goes into its session's run (meta-runs.ts); a re-stated one keeps its own form.
      const meta = values[META_AT];
      const ref = runnable(meta) ? runs.slot(values[SESSION_AT], meta) : null;
      const ins = rows.insert().run(...(ref === null ? values : withAt(values, META_AT, "")), sk, ref);
      let rowid: number | bigint;
      if (ins.changes === 1) {
        added++;
        rowid = ins.lastInsertRowid;
        insertFts().run(rowid, ...fts);
      } else {
        if (ref !== null) runs.unused(ref);
        const had = current().get(values[0]) as Record<string, unknown> & { rowid: number };
        const hadRef = isRunRef(had["mr"]) ? had["mr"] : null;
        if (hadRef !== null) had["meta"] = runs.read(hadRef);
        const text = values[textAt];
        if (rows === byteRows && text instanceof Uint8Array)
          values[textAt] = Buffer.from(text.buffer, text.byteOffset, text.length).toString();
        rowid = had.rowid;
        if (had.sk !== sk) setKey().run(sk, rowid);
        const changed = (c: string) => !sameStored(had[c], values[EVENT_INSERT_COLUMNS.indexOf(c as never)]);
        if (!EVENT_INSERT_COLUMNS.slice(1).some((c) => c !== "parent_edge" && changed(c)) && !changed("parent_edge"))
          continue;
        // A meta in a run stays there while it is the same; one that changed leaves it.
        const leaves = hadRef !== null && changed("meta");
        if (hadRef !== null && !leaves) values[META_AT] = "";
        storedRows.update().run(...values.slice(1), values[0]);
        if (leaves) {
          runs.released(hadRef);
          leaveRun().run(rowid);
        }
        if (changed("text") || changed("tool_name") || changed("status") || changed("event_type"))
          replaceFts().run(rowid, ...fts);
      }
      // events that complete an evidence bundle wait for the semantic layer (search/vectors.ts)
      if (anchorTypes.has(values[typeAt])) queueBundle().run(rowid);
    }
    runs.flush();
    for (const e of p.entities) putEntity().run(...e);
    for (const x of p.problems) putProblem().run(...x);
    for (const u of p.usage) putUsage().run(...u);
    return added;
  }

  function deleteFile(path: string): number {
    // Entities are shared between files: drop only those no remaining edge points at.
    let removed = 0;
    const targets = new Set<string>();
    const dropEdges = (src: string) => {
      for (const dst of delEdgesFrom().pluck().all(src) as string[]) if (dst.includes(":")) targets.add(dst);
    };
    for (const { session_id } of sessionsOfFile().all(path) as Array<{ session_id: string }>) {
      for (const r of rowsOfSession().all(path, { sid: session_id }) as Array<{ rowid: number; event_id: string }>) {
        delFts().run(r.rowid);
        dropEdges(r.event_id);
        delEvent().run(r.rowid);
        removed++;
      }
      dropEdges(`session:${session_id}`);
    }
    for (const id of targets) if (!id.startsWith("session:") && !entityInUse().get(id)) delEntity().run(id);
    delProblems().run(path);
    delUsage().run(path);
    delSessions().run(path);
    delFile().run(path);
    return removed;
  }

  return {
    getFileState(path: string): FileState | undefined {
      const row = getFile().get(path) as
        | (Omit<FileState, "state"> & { state: string | Uint8Array | null; gone_at: string | null })
        | undefined;
      if (!row) return undefined;
      const { gone_at: _gone, ...rest } = row;
      return { ...rest, state: row.state ? JSON.parse(decodeStored(row.state)) : null };
    },
    fileStamps(): Map<string, FileStamp> {
      return fileStampsFrom(stamps().all() as FileStampRow[]);
    },
    putFileState(state: FileState): void {
      putFile().run({ ...state, state: storedState(state) });
    },
    deleteFile,
    markGone(paths: readonly string[], at: string | null): void {
      for (const path of paths) setGone().run(at, path);
    },
    moveFile(from: string, file: FileState): void {
      const to = file.path;
      const sessions = sessionsOfFile().all(from) as Array<{ session_id: string }>;
      moveSessions().run({ from, to });
      for (const { session_id } of sessions) moveEvents().run({ sid: session_id, from });
      moveProblems().run({ from, to });
      moveUsage().run({ from, to });
      delFile().run(from);
      putFile().run({ ...file, state: storedState(file) });
    },
    goneFiles(): Array<{ path: string; gone_at: string; sessions: number }> {
      return goneFiles().all() as Array<{ path: string; gone_at: string; sessions: number }>;
    },
    pruneGone(): { files: number; sessions: number; events: number } {
      const out = { files: 0, sessions: 0, events: 0 };
      for (const f of goneFiles().all() as Array<{ path: string; sessions: number }>) {
        out.sessions += f.sessions;
        out.events += deleteFile(f.path);
        out.files++;
      }
      return out;
    },
    writeBatch(_sourceFile: string, batch: TopologyBatch, problems: Problem[]): void {
      writePrepared(prepareBatch(batch, problems));
    },
    writePrepared,
    refreshSessions(sessionIds: Iterable<string>): void {
      for (const id of sessionIds) {
        const c = { id, events: 0, prompts: 0, tools: 0, errors: 0, tests: 0, resumes: 0 };
        for (const r of countKinds().all({ sid: id }) as Array<{ event_type: string; typed: number; n: number }>) {
          c.events += r.n;
          if (r.event_type === "user_message" && r.typed) c.prompts += r.n;
          else if (r.event_type === "tool_call") c.tools += r.n;
          else if (r.event_type === "error") c.errors += r.n;
          else if (r.event_type === "test_result") c.tests += r.n;
          else if (r.event_type === "resume_point") c.resumes += r.n;
        }
        setCounts().run(c);
      }
    },
  };
}
