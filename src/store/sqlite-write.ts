/** Writes of the index: topology batches, file states, and per-session totals. */
import type Database from "better-sqlite3";
import type { TopologyBatch } from "../topology/normalize.ts";
import { PARENT_EDGE_DIRECTION, type Problem } from "../topology/types.ts";
import { ftsColumns } from "./fts-text.ts";
import type { FileState } from "./types.ts";

export function createWriter(db: Database.Database) {
  // Insert first and update on conflict in a second statement: an upsert with RETURNING cost more than the
  // insert itself, and conflicts (a message re-stated, a file read again) are rare.
  const insertEvent = db.prepare(`
    INSERT INTO session_events (event_id, session_id, provider, ordinal, timestamp, role, event_type, text, tool_name, command,
      file_path, status, parent_event_id, parent_edge, source_file, source_line, turn, tokens, meta)
    VALUES (@event_id, @session_id, @provider, @ordinal, @timestamp, @role, @event_type, @text, @tool_name, @command,
      @file_path, @status, @parent_event_id, @parent_edge, @source_file, @source_line, @turn, @tokens, @meta)
    ON CONFLICT(event_id) DO NOTHING`);
  const updateEvent = db.prepare(`
    UPDATE session_events SET session_id = @session_id, ordinal = @ordinal, timestamp = @timestamp, role = @role,
      event_type = @event_type, text = @text, tool_name = @tool_name, command = @command, file_path = @file_path,
      status = @status, parent_event_id = @parent_event_id, parent_edge = coalesce(@parent_edge, parent_edge),
      source_file = @source_file, source_line = @source_line, turn = @turn, tokens = @tokens, meta = @meta
    WHERE event_id = @event_id`);
  const rowidOf = db.prepare("SELECT rowid FROM session_events WHERE event_id = ?").pluck();
  const insertFts = db.prepare("INSERT INTO events_fts(rowid, text, idents, facets) VALUES (?, ?, ?, ?)");
  const replaceFts = db.prepare("INSERT OR REPLACE INTO events_fts(rowid, text, idents, facets) VALUES (?, ?, ?, ?)");
  const putEdge = db.prepare(
    "INSERT INTO event_edges(src, dst, edge_type, session_id, meta) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
  );
  const putEntity = db.prepare(
    "INSERT INTO entities(entity_id, kind, key, display) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
  );
  const putProblem = db.prepare(
    "INSERT INTO problems(source_file, source_line, reason, excerpt) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
  );
  const upsertSession = db.prepare(`
    INSERT INTO sessions (session_id, provider, kind, cwd, project, title, started_at, updated_at, parent_session_id, git_branch, model, source_file, meta)
    VALUES (@session_id, @provider, @kind, @cwd, @project, @title, @started_at, @updated_at, @parent_session_id, @git_branch, @model, @source_file, @meta)
    ON CONFLICT(session_id) DO UPDATE SET provider = excluded.provider, kind = excluded.kind, cwd = excluded.cwd, project = excluded.project,
      title = excluded.title, started_at = excluded.started_at, updated_at = excluded.updated_at,
      parent_session_id = excluded.parent_session_id, git_branch = excluded.git_branch, model = excluded.model,
      source_file = excluded.source_file, meta = excluded.meta`);
  const getFile = db.prepare("SELECT * FROM source_files WHERE path = ?");
  const putFile = db.prepare(`
    INSERT INTO source_files(path, provider, size, mtime_ms, inode, head_hash, offset, line, state, indexed_at)
    VALUES (@path, @provider, @size, @mtime_ms, @inode, @head_hash, @offset, @line, @state, @indexed_at)
    ON CONFLICT(path) DO UPDATE SET provider = excluded.provider, size = excluded.size, mtime_ms = excluded.mtime_ms,
      inode = excluded.inode, head_hash = excluded.head_hash, offset = excluded.offset, line = excluded.line,
      state = excluded.state, indexed_at = excluded.indexed_at`);
  // A file's events are its sessions' events (no index on source_file: it cost every insert for a rare delete).
  const sessionsOfFile = db.prepare("SELECT session_id FROM sessions WHERE source_file = ?");
  const rowsOfSession = db.prepare(
    "SELECT rowid, event_id FROM session_events WHERE session_id = ? AND source_file = ?",
  );
  const delEvent = db.prepare("DELETE FROM session_events WHERE rowid = ?");
  const delFts = db.prepare("DELETE FROM events_fts WHERE rowid = ?");
  const delEdgesFrom = db.prepare("DELETE FROM event_edges WHERE src = ? RETURNING dst");
  const entityInUse = db.prepare("SELECT 1 FROM event_edges WHERE dst = ? LIMIT 1").pluck();
  const delEntity = db.prepare("DELETE FROM entities WHERE entity_id = ?");
  const delProblems = db.prepare("DELETE FROM problems WHERE source_file = ?");
  const delSessions = db.prepare("DELETE FROM sessions WHERE source_file = ?");
  const delFile = db.prepare("DELETE FROM source_files WHERE path = ?");
  // One pass over the session's rows through its own index (the planner would otherwise pick the event-type
  // index and count every event of that type in the database).
  const countKinds =
    db.prepare(`SELECT event_type, role = 'user' AS typed, count(*) AS n FROM session_events INDEXED BY events_session
    WHERE session_id = ? GROUP BY event_type, typed`);
  const setCounts = db.prepare(`UPDATE sessions SET event_count = @events, prompt_count = @prompts, tool_count = @tools,
    error_count = @errors, test_count = @tests, resume_count = @resumes WHERE session_id = @id`);

  return {
    getFileState(path: string): FileState | undefined {
      const row = getFile.get(path) as (Omit<FileState, "state"> & { state: string | null }) | undefined;
      if (!row) return undefined;
      return { ...row, state: row.state ? JSON.parse(row.state) : null };
    },
    putFileState(state: FileState): void {
      putFile.run({ ...state, state: state.state ? JSON.stringify(state.state) : null });
    },
    deleteFile(path: string): void {
      // Entities are shared between files: drop only those no remaining edge points at.
      const targets = new Set<string>();
      const dropEdges = (src: string) => {
        for (const dst of delEdgesFrom.pluck().all(src) as string[]) if (dst.includes(":")) targets.add(dst);
      };
      for (const { session_id } of sessionsOfFile.all(path) as Array<{ session_id: string }>) {
        for (const r of rowsOfSession.all(session_id, path) as Array<{ rowid: number; event_id: string }>) {
          delFts.run(r.rowid);
          dropEdges(r.event_id);
          delEvent.run(r.rowid);
        }
        dropEdges(`session:${session_id}`);
      }
      for (const id of targets) if (!id.startsWith("session:") && !entityInUse.get(id)) delEntity.run(id);
      delProblems.run(path);
      delSessions.run(path);
      delFile.run(path);
    },
    writeBatch(_sourceFile: string, batch: TopologyBatch, problems: Problem[]): void {
      for (const s of batch.sessions) upsertSession.run({ ...s, meta: JSON.stringify(s.meta) });
      // Edges implied by columns are not stored; remember how each event hangs off its parent instead.
      const parentEdge = new Map<string, string>();
      for (const e of batch.edges) {
        const dir = PARENT_EDGE_DIRECTION[e.edge_type];
        if (dir === "child_to_parent") parentEdge.set(e.src, e.edge_type);
        else if (dir === "parent_to_child") parentEdge.set(e.dst, e.edge_type);
        else if (e.edge_type !== "next")
          putEdge.run(e.src, e.dst, e.edge_type, e.session_id, e.meta ? JSON.stringify(e.meta) : null);
      }
      for (const ev of batch.events) {
        const row = { ...ev, parent_edge: parentEdge.get(ev.event_id) ?? null, meta: JSON.stringify(ev.meta) };
        const ins = insertEvent.run(row);
        const fts = ftsColumns(ev);
        if (ins.changes === 1) insertFts.run(ins.lastInsertRowid, fts.text, fts.idents, fts.facets);
        else {
          updateEvent.run(row);
          replaceFts.run(rowidOf.get(ev.event_id) as number, fts.text, fts.idents, fts.facets);
        }
      }
      for (const e of batch.entities) putEntity.run(e.entity_id, e.kind, e.key, e.display);
      for (const p of problems) putProblem.run(p.source_file, p.source_line, p.reason, p.excerpt);
    },
    refreshSessions(sessionIds: Iterable<string>): void {
      for (const id of sessionIds) {
        const c = { id, events: 0, prompts: 0, tools: 0, errors: 0, tests: 0, resumes: 0 };
        for (const r of countKinds.all(id) as Array<{ event_type: string; typed: number; n: number }>) {
          c.events += r.n;
          if (r.event_type === "user_message" && r.typed) c.prompts += r.n;
          else if (r.event_type === "tool_call") c.tools += r.n;
          else if (r.event_type === "error") c.errors += r.n;
          else if (r.event_type === "test_result") c.tests += r.n;
          else if (r.event_type === "resume_point") c.resumes += r.n;
        }
        setCounts.run(c);
      }
    },
  };
}
