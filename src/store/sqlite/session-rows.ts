/**
 * How SQL finds one session's events (migration 20). They are found through `events_sk (sk, ordinal)`: the
 * session's number (migration 17) in place of its 36-character id cut that index to about a quarter (pi corpus:
 * 7.6 -> 2.1 MB). Rows written before migration 17 carry no number until `cairn index` converts them
 * (compact-rows.ts); while any such row is left, a statement also reads them, by id, through the partial index
 * `events_unkeyed`, which holds only them. So answers are the same during a conversion, and once it ends every
 * statement takes the keyed form, which keeps the index's order (a next or previous event reads one entry).
 */
import type Database from "better-sqlite3";
import { once } from "./lazy.ts";

/** The parts of a statement that depend on the form: the session test and the index to force, if any. */
export type SessionScope = {
  /** The condition that `alias`'s row belongs to the session whose id is bound as `@sid`. */
  of: (alias: string) => string;
  /** `INDEXED BY events_sk` where the statement wants it forced, nothing in the mixed form (an OR of two). */
  indexed: string;
};

const keyedScope: SessionScope = {
  of: (alias) => `${alias}.sk = (SELECT sk FROM sessions WHERE session_id = @sid)`,
  indexed: "INDEXED BY events_sk",
};

/** With rows left to convert: a session's numbered rows, or its rows without a number, by id. */
const mixedScope: SessionScope = {
  of: (alias) =>
    `(${alias}.sk = (SELECT sk FROM sessions WHERE session_id = @sid) OR (${alias}.sk IS NULL AND ${alias}.session_id = @sid))`,
  indexed: "",
};

export type SessionScopes = {
  /** Whether every event carries its session's number. */
  allKeyed: () => boolean;
  /** The scope for statements built now (see `statement` for a prepared one). */
  scope: () => SessionScope;
  /**
   * A statement over one session's events, prepared in each form on first use; the function returned picks the
   * keyed one when no row lacks its number (a lookup in an index that is then empty). The session's id is bound
   * by name (`{ sid }`, after any `?` values): the mixed form reads it twice.
   */
  statement: <T = Database.Statement>(
    build: (s: SessionScope) => string,
    finish?: (st: Database.Statement) => T,
  ) => () => T;
};

export function createSessionScopes(db: Database.Database): SessionScopes {
  const unkeyed = once(() => db.prepare("SELECT 1 FROM session_events WHERE sk IS NULL LIMIT 1").pluck());
  const allKeyed = () => unkeyed().get() === undefined;
  return {
    allKeyed,
    scope: (): SessionScope => (allKeyed() ? keyedScope : mixedScope),
    statement: <T>(build: (s: SessionScope) => string, finish = (st: Database.Statement) => st as T) => {
      const keyed = once(() => finish(db.prepare(build(keyedScope))));
      const mixed = once(() => finish(db.prepare(build(mixedScope))));
      return (): T => (allKeyed() ? keyed() : mixed());
    },
  };
}
