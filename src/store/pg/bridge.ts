/**
 * A synchronous face on the asynchronous `pg` client. The store interface is synchronous (better-sqlite3) and
 * everything above it calls it that way, so the connection lives in a worker thread and the caller blocks on a
 * shared counter until the answer is posted, then takes it with `receiveMessageOnPort` (the parse pool's method,
 * `indexer/parse-pool.ts`). Every call is one round trip to the worker and the server, so callers send whole
 * batches of statements at once.
 */
import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads";
import { CairnError } from "../../common/errors.ts";

export interface PgOp {
  sql: string;
  params?: unknown[];
}

export type PgRequest = { ops: PgOp[]; close?: false } | { ops: []; close: true };
export type PgReply =
  | { ok: true; results: unknown[][] }
  | { ok: false; message: string; code: string | null; detail: string | null };

export class PgError extends Error {
  override name = "PgError";
  /** PostgreSQL's SQLSTATE, when the server sent one. */
  readonly code: string | null;
  constructor(message: string, code: string | null) {
    super(message);
    this.code = code;
  }
}

export interface PgConnection {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): T[];
  /** Runs the statements in order in one round trip; one result list each. */
  many(ops: PgOp[]): unknown[][];
  close(): void;
}

/** How long one wait lasts before the worker's health is checked again. */
const WAIT_SLICE_MS = 1_000;

export function connectPg(url: string): PgConnection {
  const channel = new MessageChannel();
  const counter = new Int32Array(new SharedArrayBuffer(4));
  const ext = import.meta.url.endsWith(".ts") ? ".ts" : ".js";
  const worker = new Worker(new URL(`./pg-worker${ext}`, import.meta.url), {
    workerData: { url, port: channel.port2, counter },
    transferList: [channel.port2],
  });
  let crashed: Error | null = null;
  worker.on("error", (e) => {
    crashed = e;
  });
  worker.unref();
  let seen = 0;
  let closed = false;

  function call(req: PgRequest): unknown[][] {
    if (closed) throw new Error("the PostgreSQL connection is closed");
    channel.port1.postMessage(req);
    for (;;) {
      Atomics.wait(counter, 0, seen, WAIT_SLICE_MS);
      const got = receiveMessageOnPort(channel.port1);
      if (got) {
        seen++;
        const r = got.message as PgReply;
        if (!r.ok) throw new PgError(r.detail ? `${r.message} (${r.detail})` : r.message, r.code);
        return r.results;
      }
      if (crashed) throw new Error(`PostgreSQL worker failed: ${(crashed as Error).message}`);
    }
  }

  const conn: PgConnection = {
    query: <T>(sql: string, params: unknown[] = []) => call({ ops: [{ sql, params }] })[0] as T[],
    many: (ops) => (ops.length === 0 ? [] : call({ ops })),
    close() {
      if (closed) return;
      try {
        call({ ops: [], close: true });
      } catch {
        // the server may already be gone
      }
      closed = true;
      void worker.terminate();
    },
  };
  try {
    conn.query("SELECT 1");
  } catch (error) {
    conn.close();
    throw new CairnError(
      "index_unavailable",
      `cannot reach the PostgreSQL index at ${redactUrl(url)}: ${(error as Error).message}`,
      "check the connection string (or PGHOST/PGUSER/PGPASSWORD and ~/.pgpass) and that the server is up",
    );
  }
  return conn;
}

/** The connection string as it may be shown: the password left out. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "postgres://…";
  }
}

/** SQLite-style `?` placeholders as PostgreSQL's `$1, $2, …` (no `?` appears in the store's literals). */
export function numbered(sql: string, from = 1): string {
  let n = from;
  return sql.replace(/\?/g, () => `$${n++}`);
}
