/**
 * The thread that owns the PostgreSQL connection (`bridge.ts` drives it). Each message is a list of statements
 * run in order on one client; the answer is posted before the shared counter moves, so the blocked caller finds
 * it as soon as it wakes.
 */
import { type MessagePort, workerData } from "node:worker_threads";
import pg from "pg";
import type { PgReply, PgRequest } from "./bridge.ts";

const { url, port, counter } = workerData as { url: string; port: MessagePort; counter: Int32Array };

// Counts and identities fit in a double; the store never reads a bigint past 2^53.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

const client = new pg.Client({ connectionString: url, application_name: "cairn" });
let broken: Error | null = null;
client.on("error", (e) => {
  broken = e;
});
const ready = client.connect();

function reply(r: PgReply): void {
  port.postMessage(r);
  Atomics.add(counter, 0, 1);
  Atomics.notify(counter, 0);
}

port.on("message", async (req: PgRequest) => {
  try {
    await ready;
    if (req.close) {
      await client.end();
      reply({ ok: true, results: [] });
      port.close();
      return;
    }
    if (broken) throw broken;
    const results: unknown[][] = [];
    for (const op of req.ops) {
      // Without parameters the simple protocol runs it, which allows several statements (a migration).
      const r = op.params?.length ? await client.query(op.sql, op.params) : await client.query(op.sql);
      results.push((Array.isArray(r) ? (r.at(-1)?.rows ?? []) : r.rows) as unknown[]);
    }
    reply({ ok: true, results });
  } catch (error) {
    const e = error as Error & { code?: string; detail?: string };
    reply({ ok: false, message: e.message, code: e.code ?? null, detail: e.detail ?? null });
  }
});
