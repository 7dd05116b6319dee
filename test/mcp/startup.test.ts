/**
 * `cairn mcp` without a usable index, and its life cycle: it starts, explains, exits when stdin closes or on
 * SIGINT/SIGTERM, and refuses an over-long request line without losing the connection.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/sqlite/store.ts";
import { CLI } from "../helpers/cli.ts";
import { connectCairn } from "./client.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-mcp-start-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("cairn mcp without a usable index", () => {
  it("a missing index: a startup message on stderr, and every tool says to run 'cairn index'", async () => {
    const db = join(dir, "missing.db");
    const mcp = await connectCairn(db);
    try {
      for (const [name, args] of [
        ["search_history", { query: "timeout" }],
        ["resume_brief", {}],
        ["list_threads", {}],
      ] as const) {
        const r = await mcp.call(name, args);
        expect(r.isError).toBe(true);
        expect(r.text).toBe(`no cairn index at ${db}; run 'cairn index' first (or pass --db / set CAIRN_DB)`);
      }
      expect(mcp.stderr()).toContain(`cairn mcp: no cairn index at ${db}`);
    } finally {
      await mcp.close();
    }
  });

  it("an index from an older cairn is reported, not migrated", async () => {
    const db = join(dir, "old.db");
    openStore(db).close();
    const raw = new Database(db);
    raw.pragma("user_version = 1");
    raw.close();
    const mcp = await connectCairn(db);
    try {
      const r = await mcp.call("list_threads", {});
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/older than this cairn; run 'cairn index' to upgrade it/);
    } finally {
      await mcp.close();
    }
    const after = new Database(db, { readonly: true });
    expect(after.pragma("user_version", { simple: true })).toBe(1);
    after.close();
  });

  it("answers on stdout only and exits 0 when stdin closes", async () => {
    const server = startServer();
    await server.initialized;
    server.child.stdin.end();
    const { code } = await server.exited;
    expect(code).toBe(0);
    const lines = server.stdout().trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ id: 1, result: { serverInfo: { name: "cairn" } } });
  });
});

describe("cairn mcp stops when its client says so", () => {
  // The client holds stdin open: only the signal, or closing stdin, can end the server. Clients kill a server that
  // lingers: Claude Code sends SIGINT, SIGTERM 100 ms later and SIGKILL 400 ms after that (real-clients.test.ts).
  for (const how of ["SIGINT", "SIGTERM", "stdin closed"] as const)
    it(`exits 0 within a second of ${how}`, async () => {
      const server = startServer();
      await server.initialized;
      const asked = performance.now();
      if (how === "stdin closed") server.child.stdin.end();
      else server.child.kill(how);
      const { code, signal } = await server.exited;
      const took = performance.now() - asked;
      expect({ code, signal }).toEqual({ code: 0, signal: null });
      expect(took).toBeLessThanOrEqual(1000);
    });

  it("refuses a 50 MB request line with its id and answers the next request on the same connection", async () => {
    const server = startServer();
    await server.initialized;
    const { stdin } = server.child;
    stdin.write('{"method":"tools/call","params":{"name":"search_history","arguments":{"query":"');
    const filler = "x".repeat(1 << 20);
    for (let i = 0; i < 50; i++) stdin.write(filler);
    stdin.write('"}},"jsonrpc":"2.0","id":2}\n');
    stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 3, method: "ping" })}\n`);
    stdin.end();
    expect((await server.exited).code).toBe(0);
    const [, refused, pong] = server
      .stdout()
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as unknown);
    expect(refused).toMatchObject({ id: 2, error: { code: -32600 } });
    expect(pong).toEqual({ jsonrpc: "2.0", id: 3, result: {} });
  });
});

/** The built `cairn mcp` on a missing index, initialized, with stdin held open. */
function startServer() {
  const child = spawn(process.execPath, [CLI, "mcp", "--db", join(dir, "missing.db")], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  const initialized = new Promise<void>((resolve) =>
    child.stdout.on("data", (c: Buffer) => {
      stdout += c.toString();
      if (stdout.includes("\n")) resolve();
    }),
  );
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  const init = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } },
  };
  child.stdin.write(`${JSON.stringify(init)}\n`);
  return { child, initialized, exited, stdout: () => stdout };
}
