/** `cairn mcp` without a usable index, and its life cycle: it starts, explains, and exits when stdin closes. */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/sqlite-store.ts";
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
    const child = spawn(process.execPath, [CLI, "mcp", "--db", join(dir, "missing.db")], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.on("data", (c: Buffer) => {
      stdout += c.toString();
    });
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } },
    };
    child.stdin.write(`${JSON.stringify(init)}\n`);
    // Close stdin once the answer is in, as a client does when it is done.
    await new Promise<void>((resolve) =>
      child.stdout.on("data", () => {
        if (stdout.includes("\n")) resolve();
      }),
    );
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
    expect(code).toBe(0);
    const lines = stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ id: 1, result: { serverInfo: { name: "cairn" } } });
  });
});
