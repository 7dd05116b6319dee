/**
 * One index per probe file, in a temporary HOME with its own XDG folders (built by `cairn index`, the bundle), and
 * the CLI run in this process (`main`, what the bundle runs) for the many small commands a probe makes. Commands
 * whose behaviour depends on a real process (a terminal, a server) are spawned by the probes themselves.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { expect } from "vitest";
import type { CliIo } from "../../../src/cli/io.ts";
import { main } from "../../../src/cli/main.ts";
import { cairn } from "../../helpers/cli.ts";

export interface ProbeIndex {
  dir: string;
  home: string;
  db: string;
  /** The environment every command of this index runs with. */
  env: Record<string, string>;
  remove(): void;
}

/** A temporary HOME; `fill` writes the transcripts into it; then `cairn index` over `roots` (default: HOME). */
export function buildIndex(
  prefix: string,
  fill: (home: string) => void,
  roots?: (home: string) => string[],
): ProbeIndex {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const home = join(dir, "home");
  mkdirSync(home, { recursive: true });
  fill(home);
  const db = join(dir, "cairn.db");
  const env = {
    HOME: home,
    XDG_DATA_HOME: join(dir, "xdg-data"),
    XDG_CONFIG_HOME: join(dir, "xdg-config"),
    XDG_CACHE_HOME: join(dir, "xdg-cache"),
    XDG_STATE_HOME: join(dir, "xdg-state"),
    CAIRN_DB: db,
    NO_COLOR: "1",
    TZ: "UTC",
  };
  const r = cairn(["index", ...(roots?.(home) ?? [home]), "--db", db], { env, cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  return { dir, home, db, env, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Commands that read files, not the index (they take no --db). */
const NO_DB = new Set(["inspect"]);

/** Runs a cairn command in this process against the index (its env, `--db`), with stdout not a terminal. */
export async function run(
  index: ProbeIndex,
  args: string[],
  more: Record<string, string> = {},
  /** A person at a terminal runs it (standard input is one): what `--reveal-secrets` asks for. */
  terminal = false,
): Promise<Ran> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    ...(terminal ? { stdin: { isTTY: true } } : {}),
    stdout: { write: (c: string) => out.push(c) },
    stderr: { write: (c: string) => err.push(c) },
    env: { ...index.env, ...more },
    cwd: index.dir,
  };
  const code = await main(NO_DB.has(args[0]!) ? args : [...args, "--db", index.db], io);
  return { code, stdout: out.join(""), stderr: err.join("") };
}

export interface IndexedEvent {
  event_id: string;
  session_id: string;
  event_type: string;
  provider: string;
}

export interface IndexedSession {
  session_id: string;
  provider: string;
  kind: string;
  parent_session_id: string | null;
  source_file: string;
}

/** Every event and session the index holds, read from its tables (the ground truth the surfaces are held to). */
export function indexed(db: string): { events: IndexedEvent[]; sessions: IndexedSession[] } {
  const h = new Database(db, { readonly: true });
  try {
    const events = h
      .prepare("SELECT event_id, session_id, event_type, provider FROM session_events ORDER BY session_id, ordinal")
      .all() as IndexedEvent[];
    const sessions = h
      .prepare("SELECT session_id, provider, kind, parent_session_id, source_file FROM sessions ORDER BY session_id")
      .all() as IndexedSession[];
    return { events, sessions };
  } finally {
    h.close();
  }
}
