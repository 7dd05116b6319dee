/**
 * Numbered migrations. Each runs once, in order, inside a transaction, and is recorded in `schema_migrations`
 * (and `PRAGMA user_version`). Never edit a released migration: add the next one.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** The FTS tokenizer: Unicode words, `_` kept inside words so `snake_case` and `TS2304` stay one token. */
export const FTS_TOKENIZE = "unicode61 remove_diacritics 2 tokenchars '_'";

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
];
