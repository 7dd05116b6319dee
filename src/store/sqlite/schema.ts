/**
 * Numbered migrations. Each runs once, in order, inside a transaction, and is recorded in `schema_migrations`
 * (and `PRAGMA user_version`). Never edit a released migration: add the next one.
 */
import { RUN_SLOTS } from "./meta-runs.ts";

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** The FTS tokenizer: Unicode words, `_` kept inside words so `snake_case` and `TS2304` stay one token. */
/**
 * Events whose arrival completes an evidence bundle: a tool result (with its call), an error, a check, a
 * decision, a resume point, a request the user typed, a reply that reports to the user, a request's outcome.
 * Raw output is never embedded alone.
 */
export const BUNDLE_ANCHOR_TYPES = [
  "tool_result",
  "error",
  "test_result",
  "decision",
  "resume_point",
  "user_message",
  "assistant_message",
  "outcome",
] as const;
const sqlList = (types: readonly string[]) => types.map((t) => `'${t}'`).join(", ");
/** The anchor types as migration 3 wrote them (a released migration's SQL never changes). */
const BUNDLE_ANCHOR_SQL = sqlList(BUNDLE_ANCHOR_TYPES.slice(0, 6));
export const FTS_TOKENIZE = "unicode61 remove_diacritics 2 tokenchars '_'";

/** The settings key of the rows still to convert to the compressed layout: `{"done": <rowid>, "end": <rowid>}`. */
export const COMPACT_ROWS = "compact_rows";

/** Records the rows written so far as rows to convert (store/sqlite/compact-rows.ts), from the first. */
const CONVERT_ROWS = `INSERT OR REPLACE INTO settings(key, value)
  SELECT '${COMPACT_ROWS}', json_object('done', 0, 'end', max(rowid)) FROM session_events HAVING max(rowid) IS NOT NULL;`;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "topology",
    sql: `
CREATE TABLE sessions (
  session_id TEXT PRIMARY KEY,
  provider TEXT NOT NULL,
  kind TEXT NOT NULL,
  cwd TEXT,
  project TEXT,
  title TEXT,
  started_at TEXT,
  updated_at TEXT,
  parent_session_id TEXT,
  git_branch TEXT,
  model TEXT,
  source_file TEXT NOT NULL,
  meta TEXT NOT NULL DEFAULT '{}',
  event_count INTEGER NOT NULL DEFAULT 0,
  prompt_count INTEGER NOT NULL DEFAULT 0,
  tool_count INTEGER NOT NULL DEFAULT 0,
  error_count INTEGER NOT NULL DEFAULT 0,
  test_count INTEGER NOT NULL DEFAULT 0,
  resume_count INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX sessions_updated ON sessions(updated_at);
CREATE INDEX sessions_project ON sessions(project);
CREATE INDEX sessions_source ON sessions(source_file);

CREATE TABLE session_events (
  rowid INTEGER PRIMARY KEY,
  event_id TEXT NOT NULL UNIQUE,
  session_id TEXT NOT NULL,
  provider TEXT NOT NULL,
  ordinal INTEGER NOT NULL,
  timestamp TEXT,
  role TEXT,
  event_type TEXT NOT NULL,
  text TEXT NOT NULL,
  tool_name TEXT,
  command TEXT,
  file_path TEXT,
  status TEXT,
  parent_event_id TEXT,
  -- how the event hangs off its parent: parent | derived_from | result | calls (the implicit edges)
  parent_edge TEXT,
  source_file TEXT NOT NULL,
  source_line INTEGER NOT NULL,
  turn INTEGER NOT NULL,
  tokens INTEGER NOT NULL,
  meta TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX events_session ON session_events(session_id, ordinal);
CREATE INDEX events_type_time ON session_events(event_type, timestamp);
CREATE INDEX events_parent ON session_events(parent_event_id) WHERE parent_event_id IS NOT NULL;

-- Only the edges that do not follow from event columns (touches, runs, fails_with, decision, resume_point,
-- on_branch, spawned_by); next/parent/derived_from/result/calls are rebuilt from ordinal and parent_event_id.
CREATE TABLE event_edges (
  src TEXT NOT NULL,
  dst TEXT NOT NULL,
  edge_type TEXT NOT NULL,
  session_id TEXT NOT NULL,
  meta TEXT,
  PRIMARY KEY (src, dst, edge_type)
) WITHOUT ROWID;
CREATE INDEX edges_dst ON event_edges(dst, edge_type);

CREATE TABLE entities (
  entity_id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  key TEXT NOT NULL,
  display TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX entities_kind ON entities(kind, key);

-- facets: one token per kind, tool, provider and status (k_error, t_bash, p_codex, s_fail), so filters narrow
-- inside the index instead of after ranking.
CREATE VIRTUAL TABLE events_fts USING fts5(text, idents, facets, content='', contentless_delete=1, tokenize="${FTS_TOKENIZE}");
-- Rank by BM25 with the written words weighing more than the parts of identifiers; facets do not rank.
INSERT INTO events_fts(events_fts, rank) VALUES ('rank', 'bm25(1.0, 0.4, 0.0)');

CREATE TABLE source_files (
  path TEXT PRIMARY KEY,
  provider TEXT,
  size INTEGER NOT NULL,
  mtime_ms REAL NOT NULL,
  inode INTEGER NOT NULL,
  head_hash TEXT NOT NULL,
  offset INTEGER NOT NULL,
  line INTEGER NOT NULL,
  state TEXT,
  indexed_at TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE problems (
  source_file TEXT NOT NULL,
  source_line INTEGER NOT NULL,
  reason TEXT NOT NULL,
  excerpt TEXT NOT NULL,
  PRIMARY KEY (source_file, source_line, reason)
) WITHOUT ROWID;

CREATE TABLE checkpoints (
  checkpoint_id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL,
  event_id TEXT,
  step INTEGER,
  label TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX checkpoints_session ON checkpoints(session_id);
`,
  },
  {
    version: 2,
    name: "bundle vectors",
    // Filled by the semantic layer; the dimension is the default embedder's and is recreated when it changes.
    sql: `
CREATE TABLE bundles (
  bundle_id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  event_id TEXT NOT NULL,
  session_id TEXT NOT NULL,
  text TEXT NOT NULL,
  embedded_with TEXT
) WITHOUT ROWID;
CREATE INDEX bundles_session ON bundles(session_id);
CREATE TABLE embedder (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  name TEXT NOT NULL,
  dimension INTEGER NOT NULL
);
CREATE VIRTUAL TABLE bundle_vectors USING vec0(bundle_id TEXT PRIMARY KEY, embedding float[256]);
`,
  },
  {
    version: 3,
    name: "evidence bundles",
    // Replaces migration 2's tables, which nothing had filled. Bundles are keyed by the rowid of the event that
    // completes them: the writer queues them as events arrive (a trigger on every insert cost a quarter of the
    // indexer's time, copying each new row for the trigger), and a trigger drops them (and their vectors) with
    // their events, which is rare. Vectors are int8 codes (one row each, compared with sqlite-vec's distance functions) plus their sign
    // bits packed in chunks, which a search scans in process: sqlite-vec's vec0 table took 185 ms per query over
    // 287,000 vectors and 0.4 ms per lookup by rowid here, the chunks about a tenth of that (bench/semantic.bench.ts).
    sql: `
DROP TABLE bundle_vectors;
DROP TABLE bundles;
DROP TABLE embedder;
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE bundle_queue (event_rowid INTEGER PRIMARY KEY);
CREATE TABLE bundles (
  anchor_rowid INTEGER PRIMARY KEY,
  event_id TEXT NOT NULL,
  session_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  text TEXT NOT NULL,
  embedded INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX bundles_pending ON bundles(anchor_rowid) WHERE embedded = 0;
CREATE INDEX bundles_event ON bundles(event_id);
CREATE TABLE vector_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  embedder TEXT NOT NULL,
  dimension INTEGER NOT NULL,
  created_at TEXT NOT NULL
);
-- one int8 vector per embedded bundle (sqlite-vec's int8 layout)
CREATE TABLE vector_codes (anchor_rowid INTEGER PRIMARY KEY, code BLOB NOT NULL);
-- sign bits of the vectors, packed in chunks for a fast first pass; slots of deleted or re-embedded vectors stay
-- until the chunks are rebuilt, and are skipped because their code is gone or changed
CREATE TABLE vector_bits (
  chunk INTEGER PRIMARY KEY,
  rowids BLOB NOT NULL,
  kinds BLOB NOT NULL,
  bits BLOB NOT NULL
);
CREATE TRIGGER bundle_drop AFTER DELETE ON session_events WHEN old.event_type IN (${BUNDLE_ANCHOR_SQL})
BEGIN
  DELETE FROM bundle_queue WHERE event_rowid = old.rowid;
  DELETE FROM bundles WHERE anchor_rowid = old.rowid;
  DELETE FROM vector_codes WHERE anchor_rowid = old.rowid;
END;
INSERT INTO bundle_queue(event_rowid) SELECT rowid FROM session_events WHERE event_type IN (${BUNDLE_ANCHOR_SQL});
`,
  },
  {
    version: 4,
    name: "file tails and gone sources",
    // tail_hash: the 4 KiB before a file's saved offset, so a file rewritten in place that keeps its head is
    // noticed; gone_at: when a transcript was found missing (its sessions stay until 'cairn prune').
    sql: `
ALTER TABLE source_files ADD COLUMN tail_hash TEXT;
ALTER TABLE source_files ADD COLUMN gone_at TEXT;
`,
  },
  {
    version: 5,
    name: "stemmed words, reply and outcome bundles",
    // A contentless FTS table cannot gain a column: it is rebuilt with a \`stems\` column (the Porter stems of the
    // plain words, store/shared/stems.ts) beside the exact \`text\`, and refilled from the events through cairn_fts(), a
    // function the store registers before migrating (store/shared/fts-text.ts computes the columns, as for new events).
    sql: `
DROP TABLE events_fts;
CREATE VIRTUAL TABLE events_fts USING fts5(text, idents, facets, stems, content='', contentless_delete=1, tokenize="${FTS_TOKENIZE}");
-- Exact words weigh most, then identifier parts, then stems (an exact match also matches its stem, so it ranks first).
INSERT INTO events_fts(events_fts, rank) VALUES ('rank', 'bm25(1.0, 0.4, 0.0, 0.3)');
INSERT INTO events_fts(rowid, text, idents, facets, stems)
  SELECT rowid,
    cairn_fts(rowid, 0, event_type, text, tool_name, provider, status),
    cairn_fts(rowid, 1, event_type, text, tool_name, provider, status),
    cairn_fts(rowid, 2, event_type, text, tool_name, provider, status),
    cairn_fts(rowid, 3, event_type, text, tool_name, provider, status)
  FROM session_events;
-- Replies and outcomes become bundles too: the trigger drops theirs with their events, and the ones already
-- indexed are queued for building.
DROP TRIGGER bundle_drop;
CREATE TRIGGER bundle_drop AFTER DELETE ON session_events WHEN old.event_type IN (${sqlList(BUNDLE_ANCHOR_TYPES)})
BEGIN
  DELETE FROM bundle_queue WHERE event_rowid = old.rowid;
  DELETE FROM bundles WHERE anchor_rowid = old.rowid;
  DELETE FROM vector_codes WHERE anchor_rowid = old.rowid;
END;
INSERT OR IGNORE INTO bundle_queue(event_rowid) SELECT rowid FROM session_events WHERE event_type IN ('assistant_message', 'outcome');
`,
  },
  {
    version: 6,
    name: "topology version per file",
    // The normalizer version a file's events were derived with (TOPOLOGY_VERSION), read with the one-stat
    // unchanged check: a file derived by an older normalizer is read again though it did not change. Null (every
    // file indexed before) is older than any version.
    sql: `
ALTER TABLE source_files ADD COLUMN topology_version INTEGER;
`,
  },
  {
    version: 7,
    name: "events by time",
    // Filter-only searches (provider:, tool:, project: while a user types) list events newest first: read from
    // this index they stop at the limit, where before every matching event of a million was sorted.
    sql: `
CREATE INDEX events_time ON session_events(timestamp);
`,
  },
  {
    version: 8,
    name: "filters read from the time indexes",
    // An event's row holds its text before the filter columns, so testing `tool:`, `provider:` or a status on the
    // row walks the text's overflow pages: `tool:Bash` read a million-event index for a quarter of a second.
    // With the filter columns in the newest-first indexes, a scan tests them there and reads only the rows it
    // returns. Likewise a file's `state` comes before `gone_at`: the gone files get an index of their own, so a
    // session's lookup no longer reads its file's state.
    sql: `
DROP INDEX events_type_time;
CREATE INDEX events_type_time ON session_events(event_type, timestamp, rowid, tool_name, provider, status, session_id);
DROP INDEX events_time;
CREATE INDEX events_time ON session_events(timestamp, rowid, event_type, tool_name, provider, status, session_id);
CREATE INDEX source_files_gone ON source_files(path) WHERE gone_at IS NOT NULL;
`,
  },
  {
    version: 9,
    name: "events by tool and time",
    // `tool:NAME` walked the kind's index until it met that tool: for a tool the newest events do not use, a
    // hundred thousand entries on a million-event index, each a page read in a new process. Led by the tool (as
    // `tool:` compares it, without case), the walk starts at that tool's newest event.
    sql: `
CREATE INDEX events_tool_time ON session_events(tool_name COLLATE NOCASE, timestamp, rowid, event_type, provider, status, session_id)
  WHERE tool_name IS NOT NULL;
`,
  },
  {
    version: 10,
    name: "file stamps read from an index",
    // Every index run first reads each file's size, mtime, inode and versions to skip the unchanged ones; in the
    // row, `gone_at` and `topology_version` come after the parser state (often several KB), so that read walked
    // every state's pages: a tenth of a no-change run over 300 files. The stamps now come from this index alone.
    sql: `
CREATE INDEX source_files_stamps ON source_files(path, size, mtime_ms, inode, gone_at, topology_version);
`,
  },
  {
    version: 11,
    name: "tool inputs kept once",
    // A tool call's typed input repeats its text (an edit's old and new text): the strings of its meta found in
    // the text are stored as where they stand there (store/shared/packed-meta.ts), through cairn_packed_meta(), which the
    // store registers before migrating; it gives null for a meta with nothing to pack.
    sql: `
UPDATE session_events SET meta = cairn_packed_meta(text, meta)
  WHERE event_type = 'tool_call' AND cairn_packed_meta(text, meta) IS NOT NULL;
`,
  },
  {
    version: 12,
    name: "model calls' token usage",
    // What each model call cost in tokens, as the agent recorded it, one row per call record: copies of one call
    // (a resumed session's file repeating its messages) are kept and told apart on read by \`call\`. Keyed by agent
    // (a report of one agent reads its rows alone) and where it was read, like problems, so that a file read again
    // or moved takes its rows with it (found by the index on the file).
    sql: `
CREATE TABLE usage_calls (
  source_file TEXT NOT NULL,
  source_line INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  session_id TEXT NOT NULL,
  provider TEXT NOT NULL,
  timestamp TEXT,
  model TEXT,
  call TEXT,
  input INTEGER NOT NULL,
  output INTEGER NOT NULL,
  cache_read INTEGER NOT NULL,
  cache_write INTEGER NOT NULL,
  cache_write_1h INTEGER NOT NULL,
  reasoning INTEGER NOT NULL,
  cost REAL,
  sidechain INTEGER NOT NULL,
  fast INTEGER NOT NULL,
  PRIMARY KEY (provider, source_file, source_line, seq)
) WITHOUT ROWID;
CREATE INDEX usage_calls_file ON usage_calls(source_file);
`,
  },
  {
    version: 13,
    name: "a generation of each agent's usage rows",
    // A usage report rolls an agent's calls up and keeps the result (app/catalog/usage-buckets.ts) under a number
    // that every change to that agent's rows moves, wherever the change comes from (a file read, re-read, moved or
    // pruned). \`INSERT OR REPLACE\` deletes without firing the delete trigger, and inserts with it.
    sql: `
CREATE TRIGGER usage_calls_added AFTER INSERT ON usage_calls BEGIN
  INSERT INTO settings(key, value) VALUES ('usage_generation:' || NEW.provider, '1')
    ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1;
END;
CREATE TRIGGER usage_calls_removed AFTER DELETE ON usage_calls BEGIN
  INSERT INTO settings(key, value) VALUES ('usage_generation:' || OLD.provider, '1')
    ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1;
END;
CREATE TRIGGER usage_calls_changed AFTER UPDATE ON usage_calls BEGIN
  INSERT INTO settings(key, value) VALUES ('usage_generation:' || OLD.provider, '1')
    ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1;
  INSERT INTO settings(key, value) VALUES ('usage_generation:' || NEW.provider, '1')
    ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1;
END;
INSERT OR IGNORE INTO settings(key, value) SELECT DISTINCT 'usage_generation:' || provider, '1' FROM usage_calls;
`,
  },
  {
    version: 14,
    name: "large event texts and metas stored compressed",
    // Only records which rows were written before (store/sqlite/compact-rows.ts): `cairn index` converts them
    // in batches afterwards, so the migration is instant and a stopped conversion goes on where it stopped. Rows
    // read the same compressed or not, so the index answers throughout.
    sql: `
${CONVERT_ROWS}
`,
  },
  {
    version: 15,
    name: "an event read from its session's file keeps no path of its own",
    // Such an event's source_file is stored as '' and read as its session's (store/sqlite/write.ts, read.ts). When a
    // session's file changes (a session read again from another file), its rows kept as '' keep the path they were
    // read from; a file moved on purpose gives its rows back to the session afterwards (write.ts \`moveFile\`). The
    // existing rows are converted by \`cairn index\` as in migration 14, whose mark is set again (rows already
    // compressed are not compressed twice).
    sql: `
CREATE TRIGGER sessions_file_changed AFTER UPDATE OF source_file ON sessions
  WHEN OLD.source_file <> NEW.source_file BEGIN
  UPDATE session_events SET source_file = OLD.source_file WHERE session_id = OLD.session_id AND source_file = '';
END;
${CONVERT_ROWS}
`,
  },
  {
    version: 16,
    name: "usage rows found by agent and file",
    // A file's usage rows (to move or delete them) are found through the table's key, agent by agent
    // (store/sqlite/write.ts): the index on the path alone repeated every row's path (4.7 of 243 MB on the pi corpus).
    sql: `
DROP INDEX usage_calls_file;
`,
  },
  {
    version: 17,
    name: "events keyed by a session number",
    // The three newest-first indexes ended with the event's session id (36 characters of a UUID in most agents) so
    // that a walk could test `project:` or a session prefix without reading the event: a third of their bytes (pi
    // corpus: 13 of 36 MB). They now end with a small number the session gets once (\`sk\`), which the walk tests
    // against the numbers of the sessions that pass. Rows written before carry none until \`cairn index\` converts
    // them (compact-rows.ts); a filter reads such a row's session id instead, so answers are the same meanwhile.
    sql: `
ALTER TABLE sessions ADD COLUMN sk INTEGER;
UPDATE sessions SET sk = rowid;
CREATE UNIQUE INDEX sessions_sk ON sessions(sk);
ALTER TABLE session_events ADD COLUMN sk INTEGER;
-- An index whose first run stopped before its deferred indexes were built (deferred.ts) keeps their old SQL.
DELETE FROM settings WHERE key = 'deferred_indexes';
CREATE INDEX IF NOT EXISTS events_parent ON session_events(parent_event_id) WHERE parent_event_id IS NOT NULL;
DROP INDEX IF EXISTS events_type_time;
CREATE INDEX events_type_time ON session_events(event_type, timestamp, rowid, tool_name, provider, status, sk);
DROP INDEX IF EXISTS events_time;
CREATE INDEX events_time ON session_events(timestamp, rowid, event_type, tool_name, provider, status, sk);
DROP INDEX IF EXISTS events_tool_time;
CREATE INDEX events_tool_time ON session_events(tool_name COLLATE NOCASE, timestamp, rowid, event_type, provider, status, sk)
  WHERE tool_name IS NOT NULL;
${CONVERT_ROWS}
`,
  },
  {
    version: 18,
    name: "small metas kept in runs",
    // A session's small metas are deflated together, up to 32 in a run (store/sqlite/meta-runs.ts); the event keeps
    // '' for its meta and run * 64 + slot in \`mr\`. A run counts the events pointing into it and goes with the last
    // of them. Rows written before are put into runs by \`cairn index\`, as in migration 14.
    sql: `
ALTER TABLE session_events ADD COLUMN mr INTEGER;
CREATE TABLE meta_runs (run INTEGER PRIMARY KEY, data BLOB NOT NULL, live INTEGER NOT NULL);
CREATE TRIGGER meta_run_event_deleted AFTER DELETE ON session_events WHEN OLD.mr IS NOT NULL BEGIN
  UPDATE meta_runs SET live = live - 1 WHERE run = OLD.mr / ${RUN_SLOTS};
END;
CREATE TRIGGER meta_run_event_changed AFTER UPDATE OF mr ON session_events
  WHEN OLD.mr IS NOT NULL AND NEW.mr IS NOT OLD.mr BEGIN
  UPDATE meta_runs SET live = live - 1 WHERE run = OLD.mr / ${RUN_SLOTS};
END;
CREATE TRIGGER meta_run_unused AFTER UPDATE OF live ON meta_runs WHEN NEW.live <= 0 BEGIN
  DELETE FROM meta_runs WHERE run = NEW.run;
END;
${CONVERT_ROWS}
`,
  },
  {
    version: 19,
    name: "embedded bundles keep a digest, not their text",
    // A bundle's text is built from its events and read only to embed it: once embedded, a digest (8 bytes of its
    // SHA-1, store/shared/bundle-text.ts) tells whether a rebuilt bundle changed, and the text is built again when
    // asked for (store/sqlite/bundle-texts.ts). The existing bundles get their digests in the batches of the row
    // conversion (store/sqlite/compact-rows.ts), which walks every row once more; until then they keep their texts.
    sql: `
ALTER TABLE bundles ADD COLUMN digest BLOB;
${CONVERT_ROWS}
`,
  },
  {
    version: 20,
    name: "a session's events found by its number",
    // The index of a session's events in order was keyed by the session's id (36 characters in most agents): it now
    // is by its number (migration 17), a quarter of the bytes (pi corpus: 7.6 -> 2.1 MB). Rows not yet numbered
    // (an index still converting, compact-rows.ts) are kept in a partial index of their ids, empty once converted,
    // which statements read while any are left (store/sqlite/session-rows.ts).
    sql: `
CREATE INDEX events_sk ON session_events(sk, ordinal);
CREATE INDEX events_unkeyed ON session_events(session_id, ordinal) WHERE sk IS NULL;
DROP INDEX events_session;
DROP TRIGGER sessions_file_changed;
CREATE TRIGGER sessions_file_changed AFTER UPDATE OF source_file ON sessions
  WHEN OLD.source_file <> NEW.source_file BEGIN
  UPDATE session_events SET source_file = OLD.source_file
    WHERE (sk = OLD.sk OR (sk IS NULL AND session_id = OLD.session_id)) AND source_file = '';
END;
`,
  },
];
