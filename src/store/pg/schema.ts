/**
 * The PostgreSQL index's numbered migrations, its own (a SQLite schema version means nothing here). Each runs once,
 * in order, in a transaction, recorded in `cairn_migrations`. Never edit a released one: add the next.
 *
 * Differences from the SQLite schema, and why: files are keyed by (machine, path), so two machines never share a
 * file's bookkeeping; sessions and files record the machine and user they came from; the full-text index is one
 * `tsvector` column per event, built by cairn (`fts.ts`) from the same prepared columns SQLite's FTS5 gets,
 * each column under its own weight (A written text, B identifier parts, C stems, D facets), with a GIN index.
 */
export interface PgMigration {
  version: number;
  name: string;
  sql: string;
}

export const PG_MIGRATIONS: readonly PgMigration[] = [
  {
    version: 1,
    name: "team index",
    sql: `
CREATE TABLE source_files (
  machine TEXT NOT NULL,
  path TEXT COLLATE "C" NOT NULL,
  user_name TEXT,
  provider TEXT,
  size DOUBLE PRECISION NOT NULL,
  mtime_ms DOUBLE PRECISION NOT NULL,
  inode DOUBLE PRECISION NOT NULL,
  head_hash TEXT NOT NULL,
  tail_hash TEXT,
  "offset" BIGINT NOT NULL,
  line BIGINT NOT NULL,
  state TEXT,
  indexed_at TEXT NOT NULL,
  gone_at TEXT,
  topology_version INTEGER,
  PRIMARY KEY (machine, path)
);

CREATE TABLE sessions (
  session_id TEXT COLLATE "C" PRIMARY KEY,
  provider TEXT NOT NULL,
  kind TEXT NOT NULL,
  cwd TEXT,
  project TEXT,
  title TEXT,
  started_at TEXT COLLATE "C",
  updated_at TEXT COLLATE "C",
  parent_session_id TEXT COLLATE "C",
  git_branch TEXT,
  model TEXT,
  source_file TEXT COLLATE "C" NOT NULL,
  machine TEXT NOT NULL,
  user_name TEXT,
  meta TEXT NOT NULL DEFAULT '{}',
  event_count INTEGER NOT NULL DEFAULT 0,
  prompt_count INTEGER NOT NULL DEFAULT 0,
  tool_count INTEGER NOT NULL DEFAULT 0,
  error_count INTEGER NOT NULL DEFAULT 0,
  test_count INTEGER NOT NULL DEFAULT 0,
  resume_count INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX sessions_updated ON sessions(updated_at);
CREATE INDEX sessions_project ON sessions(lower(project));
CREATE INDEX sessions_source ON sessions(machine, source_file);

CREATE TABLE session_events (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  event_id TEXT COLLATE "C" NOT NULL UNIQUE,
  session_id TEXT COLLATE "C" NOT NULL,
  provider TEXT NOT NULL,
  ordinal INTEGER NOT NULL,
  "timestamp" TEXT COLLATE "C",
  role TEXT,
  event_type TEXT NOT NULL,
  text TEXT NOT NULL,
  tool_name TEXT,
  command TEXT,
  file_path TEXT,
  status TEXT,
  parent_event_id TEXT COLLATE "C",
  parent_edge TEXT,
  source_file TEXT COLLATE "C" NOT NULL,
  source_line INTEGER NOT NULL,
  turn INTEGER NOT NULL,
  tokens INTEGER NOT NULL,
  meta TEXT NOT NULL DEFAULT '{}',
  fts TSVECTOR NOT NULL
);
CREATE INDEX events_session ON session_events(session_id, ordinal);
CREATE INDEX events_type_time ON session_events(event_type, timestamp);
CREATE INDEX events_time ON session_events(timestamp);
CREATE INDEX events_parent ON session_events(parent_event_id) WHERE parent_event_id IS NOT NULL;
CREATE INDEX events_fts ON session_events USING GIN (fts);

CREATE TABLE event_edges (
  src TEXT COLLATE "C" NOT NULL,
  dst TEXT COLLATE "C" NOT NULL,
  edge_type TEXT NOT NULL,
  session_id TEXT COLLATE "C" NOT NULL,
  meta TEXT,
  PRIMARY KEY (src, dst, edge_type)
);
CREATE INDEX edges_dst ON event_edges(dst, edge_type);

CREATE TABLE entities (
  entity_id TEXT COLLATE "C" PRIMARY KEY,
  kind TEXT NOT NULL,
  key TEXT NOT NULL,
  display TEXT NOT NULL
);

CREATE TABLE problems (
  machine TEXT NOT NULL,
  source_file TEXT COLLATE "C" NOT NULL,
  source_line INTEGER NOT NULL,
  reason TEXT NOT NULL,
  excerpt TEXT NOT NULL,
  PRIMARY KEY (machine, source_file, source_line, reason)
);

CREATE TABLE checkpoints (
  seq BIGINT GENERATED ALWAYS AS IDENTITY,
  checkpoint_id TEXT COLLATE "C" PRIMARY KEY,
  session_id TEXT COLLATE "C" NOT NULL,
  event_id TEXT COLLATE "C",
  step INTEGER,
  label TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX checkpoints_session ON checkpoints(session_id);

CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`,
  },
  {
    version: 2,
    name: "evidence bundles and vector codes",
    // As SQLite's migrations 3 and 5: triggers queue the events that complete a bundle (inserted, or updated with a
    // change) and drop bundles and vectors with their events; the anchor types are sqlite/schema.ts's BUNDLE_ANCHOR_TYPES
    // written out (a released migration never changes). Vectors are int8 codes and sign-bit chunks
    // (shared/vector-codes.ts); anchors are session_events.id, so they fit the chunks' 32-bit slots.
    sql: `
CREATE TABLE bundle_queue (anchor_id BIGINT PRIMARY KEY);
CREATE TABLE bundles (
  anchor_id BIGINT PRIMARY KEY,
  event_id TEXT COLLATE "C" NOT NULL,
  session_id TEXT COLLATE "C" NOT NULL,
  kind TEXT NOT NULL,
  text TEXT NOT NULL,
  embedded BOOLEAN NOT NULL DEFAULT false
);
CREATE INDEX bundles_pending ON bundles(anchor_id) WHERE NOT embedded;
CREATE INDEX bundles_event ON bundles(event_id);
CREATE INDEX bundles_session ON bundles(session_id);
CREATE TABLE vector_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  embedder TEXT NOT NULL,
  dimension INTEGER NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE vector_codes (anchor_id BIGINT PRIMARY KEY, code BYTEA NOT NULL);
CREATE TABLE vector_bits (chunk INTEGER PRIMARY KEY, rowids BYTEA NOT NULL, kinds BYTEA NOT NULL, bits BYTEA NOT NULL);
CREATE FUNCTION cairn_bundle_queue() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO bundle_queue(anchor_id) VALUES (NEW.id) ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE FUNCTION cairn_bundle_drop() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM bundle_queue WHERE anchor_id = OLD.id;
  DELETE FROM bundles WHERE anchor_id = OLD.id;
  DELETE FROM vector_codes WHERE anchor_id = OLD.id;
  RETURN NULL;
END $$;
CREATE TRIGGER bundle_queue AFTER INSERT OR UPDATE ON session_events FOR EACH ROW
  WHEN (NEW.event_type IN ('tool_result', 'error', 'test_result', 'decision', 'resume_point', 'user_message', 'assistant_message', 'outcome')) EXECUTE FUNCTION cairn_bundle_queue();
CREATE TRIGGER bundle_drop AFTER DELETE ON session_events FOR EACH ROW
  WHEN (OLD.event_type IN ('tool_result', 'error', 'test_result', 'decision', 'resume_point', 'user_message', 'assistant_message', 'outcome')) EXECUTE FUNCTION cairn_bundle_drop();
INSERT INTO bundle_queue(anchor_id) SELECT id FROM session_events WHERE event_type IN ('tool_result', 'error', 'test_result', 'decision', 'resume_point', 'user_message', 'assistant_message', 'outcome');
`,
  },
  {
    version: 3,
    name: "newest-first indexes",
    // Filter-only searches list events newest first (timestamp DESC NULLS LAST, id DESC): indexes in that order let
    // the LIMIT stop after a page instead of sorting every event of a kind (2.4 s for decision: at 1.1 M events,
    // 3 ms with the index). They serve since:/until: ranges as the indexes they replace did.
    sql: `
CREATE INDEX events_type_newest ON session_events(event_type, "timestamp" DESC NULLS LAST, id DESC);
CREATE INDEX events_newest ON session_events("timestamp" DESC NULLS LAST, id DESC);
DROP INDEX events_type_time;
DROP INDEX events_time;
`,
  },
  {
    version: 4,
    name: "statement-level bundle triggers",
    // Migration 2's row triggers ran a PL/pgSQL call and a one-row INSERT for every event written; one batch of
    // events is one INSERT statement, so a statement trigger reads the whole batch from its transition table and
    // queues (or drops) its anchors in one INSERT (or DELETE). A transition table belongs to one event, hence one
    // trigger for inserts and one for updates (an upsert fills both). The anchor types are migration 2's.
    sql: `
DROP TRIGGER bundle_queue ON session_events;
DROP TRIGGER bundle_drop ON session_events;
CREATE FUNCTION cairn_bundle_queue_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO bundle_queue(anchor_id) SELECT id FROM changed
    WHERE event_type IN ('tool_result', 'error', 'test_result', 'decision', 'resume_point', 'user_message', 'assistant_message', 'outcome') ORDER BY id ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE FUNCTION cairn_bundle_drop_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM bundle_queue WHERE anchor_id IN (SELECT id FROM gone WHERE event_type IN ('tool_result', 'error', 'test_result', 'decision', 'resume_point', 'user_message', 'assistant_message', 'outcome'));
  DELETE FROM bundles WHERE anchor_id IN (SELECT id FROM gone WHERE event_type IN ('tool_result', 'error', 'test_result', 'decision', 'resume_point', 'user_message', 'assistant_message', 'outcome'));
  DELETE FROM vector_codes WHERE anchor_id IN (SELECT id FROM gone WHERE event_type IN ('tool_result', 'error', 'test_result', 'decision', 'resume_point', 'user_message', 'assistant_message', 'outcome'));
  RETURN NULL;
END $$;
CREATE TRIGGER bundle_queue_insert AFTER INSERT ON session_events REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION cairn_bundle_queue_rows();
CREATE TRIGGER bundle_queue_update AFTER UPDATE ON session_events REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION cairn_bundle_queue_rows();
CREATE TRIGGER bundle_drop AFTER DELETE ON session_events REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION cairn_bundle_drop_rows();
`,
  },
  {
    version: 5,
    name: "file paths in the newest-first kind index",
    // file: walks a kind's events newest first and tests each path; with the path in the index that walk reads no
    // table rows (an index-only scan): file:theme.ts at 1.1 M events tested 33,000 paths, 300 ms from the table,
    // 30-70 ms from the index.
    sql: `
CREATE INDEX events_type_newest_path ON session_events(event_type, "timestamp" DESC NULLS LAST, id DESC) INCLUDE (file_path);
DROP INDEX events_type_newest;
`,
  },
  {
    version: 6,
    name: "model calls' token usage",
    // As SQLite's migration 12, keyed by the machine as problems are.
    sql: `
CREATE TABLE usage_calls (
  machine TEXT NOT NULL,
  source_file TEXT COLLATE "C" NOT NULL,
  source_line INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  session_id TEXT COLLATE "C" NOT NULL,
  provider TEXT NOT NULL,
  "timestamp" TEXT,
  model TEXT,
  call TEXT COLLATE "C",
  input BIGINT NOT NULL,
  output BIGINT NOT NULL,
  cache_read BIGINT NOT NULL,
  cache_write BIGINT NOT NULL,
  cache_write_1h BIGINT NOT NULL,
  reasoning BIGINT NOT NULL,
  cost DOUBLE PRECISION,
  sidechain SMALLINT NOT NULL,
  fast SMALLINT NOT NULL,
  PRIMARY KEY (machine, source_file, source_line, seq)
);
CREATE INDEX usage_calls_session ON usage_calls(session_id);
`,
  },
];

export const PG_SCHEMA_VERSION = PG_MIGRATIONS.reduce((a, m) => Math.max(a, m.version), 0);
