/**
 * What the agents' hook tests share: a fake model API on 127.0.0.1, the environment of a test's home (its cairn
 * index and state beside it), an index made unreadable, and the check that a brief's citations open with
 * `cairn show`.
 */
import { type SpawnOptions, spawn } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { expect } from "vitest";
import { cairn } from "../helpers/cli.ts";

/** HOME, and cairn's data and state, under a test's `root` (folders home, data and state). */
export function homeEnv(root: string): Record<string, string> {
  return { HOME: join(root, "home"), XDG_DATA_HOME: join(root, "data"), XDG_STATE_HOME: join(root, "state") };
}

/** Overwrites the index under `data` with what no SQLite reads; returns its path (remove it to start afresh). */
export function breakIndex(data: string): string {
  const db = join(data, "cairn", "cairn.db");
  writeFileSync(db, "this is not a database");
  for (const suffix of ["-wal", "-shm"]) rmSync(`${db}${suffix}`, { force: true });
  return db;
}

/** The brief in `sent` cites events, and each opens with `cairn show`. */
export function expectCitationsOpen(sent: string, env: Record<string, string>): void {
  const cited = [...sent.matchAll(/\[e:([0-9a-f]{16})\]/g)].map((m) => m[1] as string);
  expect(cited.length).toBeGreaterThan(0);
  for (const id of new Set(cited)) expect(cairn(["show", id], { env }).code).toBe(0);
}

export interface LocalServer {
  /** `http://127.0.0.1:PORT` */
  url: string;
  close(): void;
}

/** A fake model API on 127.0.0.1: `handle` gets each request with its whole body. */
export async function serveLocal(
  handle: (req: IncomingMessage, res: ServerResponse, body: string) => void,
): Promise<LocalServer> {
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => handle(req, res, body));
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

/**
 * An agent's CLI run to its end without blocking this process (the fake API answers from it); it must exit 0.
 * stdin is closed: some CLIs read piped input as part of the prompt.
 */
export async function runAgent(
  bin: string,
  args: string[],
  options: SpawnOptions,
): Promise<{ stdout: string; stderr: string }> {
  const child = spawn(bin, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const code = await new Promise<number | null>((done) => child.on("close", done));
  expect(code, stderr).toBe(0);
  return { stdout, stderr };
}
