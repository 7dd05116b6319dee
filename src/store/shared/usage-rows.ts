/** A model call's usage row as both stores bind and read it (the \`usage_calls\` table). */
import type { UsageCall, UsageRow } from "../../topology/types.ts";

/** Settings keys of each agent's usage generation (`ReadonlyStore.usageGenerations`), the agent's name after it. */
export const USAGE_GENERATION = "usage_generation:";

/** The columns of a usage row, as \`UsageRow\` names them. */
export const USAGE_COLUMNS = [
  "source_file",
  "source_line",
  "seq",
  "session_id",
  "provider",
  "timestamp",
  "model",
  "call",
  "input",
  "output",
  "cache_read",
  "cache_write",
  "cache_write_1h",
  "reasoning",
  "cost",
  "sidechain",
  "fast",
] as const satisfies ReadonlyArray<keyof UsageRow>;

/** Each column's type where PostgreSQL reads a batch's rows from JSON (pg/write.ts). */
export const USAGE_PG_TYPES: Record<(typeof USAGE_COLUMNS)[number], string> = {
  source_file: "text",
  source_line: "integer",
  seq: "integer",
  session_id: "text",
  provider: "text",
  timestamp: "text",
  model: "text",
  call: "text",
  input: "bigint",
  output: "bigint",
  cache_read: "bigint",
  cache_write: "bigint",
  cache_write_1h: "bigint",
  reasoning: "bigint",
  cost: "double precision",
  sidechain: "smallint",
  fast: "smallint",
};

/** The row's values in column order, flags as 0 or 1. */
export function usageValues(u: UsageRow): unknown[] {
  return USAGE_COLUMNS.map((c) => {
    const v = u[c];
    return typeof v === "boolean" ? (v ? 1 : 0) : v;
  });
}

/** A row as read back (flags as numbers, counts maybe as strings from PostgreSQL's bigint). */
export function usageRowOf(r: Record<string, unknown>): UsageRow {
  const n = (c: string) => Number(r[c] ?? 0);
  return {
    source_file: String(r["source_file"]),
    source_line: n("source_line"),
    seq: n("seq"),
    session_id: String(r["session_id"]),
    provider: r["provider"] as UsageRow["provider"],
    timestamp: (r["timestamp"] as string | null) ?? null,
    model: (r["model"] as string | null) ?? null,
    call: (r["call"] as string | null) ?? null,
    input: n("input"),
    output: n("output"),
    cache_read: n("cache_read"),
    cache_write: n("cache_write"),
    cache_write_1h: n("cache_write_1h"),
    reasoning: n("reasoning"),
    cost: r["cost"] === null || r["cost"] === undefined ? null : Number(r["cost"]),
    sidechain: Boolean(r["sidechain"]),
    fast: Boolean(r["fast"]),
  };
}

/** A call read as an array of the columns after where it was read (SQLite's raw rows: a report reads many). */
export function usageCallOfValues(v: unknown[]): UsageCall {
  return {
    session_id: v[0] as string,
    provider: v[1] as UsageCall["provider"],
    timestamp: v[2] as string | null,
    model: v[3] as string | null,
    call: v[4] as string | null,
    input: v[5] as number,
    output: v[6] as number,
    cache_read: v[7] as number,
    cache_write: v[8] as number,
    cache_write_1h: v[9] as number,
    reasoning: v[10] as number,
    cost: v[11] as number | null,
    sidechain: v[12] === 1,
    fast: v[13] === 1,
  };
}
