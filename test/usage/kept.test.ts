/**
 * What a usage report keeps in the index (each agent's calls rolled up, under a generation its rows move) is never
 * stale: after transcripts are added and one is cut short (read again from its start), `cairn usage` on the same
 * index answers what a fresh index of the same files answers, for every agent and grouping; and while nothing
 * changes it answers from what it kept.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { writeUsageCorpus } from "../../bench/usage-corpus.ts";
import { cairn } from "../helpers/cli.ts";

const root = mkdtempSync(join(tmpdir(), "cairn-usage-kept-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const home = join(root, "home");
const env = { HOME: home, CODEX_HOME: join(home, ".codex"), XDG_DATA_HOME: join(root, "data"), TZ: "UTC" };

function report(db: string, by: string): unknown {
  const run = cairn(["usage", "--by", by, "--timezone", "UTC", "--json", "--db", db], { env });
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((f) => join(dir, f))
    .filter((f) => f.endsWith(".jsonl") && statSync(f).isFile())
    .sort();
}

function kept(db: string): Map<string, string> {
  const d = new Database(db, { readonly: true });
  try {
    const rows = d.prepare("SELECT key, value FROM settings WHERE key LIKE 'usage_%'").all() as Array<{
      key: string;
      value: string;
    }>;
    return new Map(rows.map((r) => [r.key, r.value]));
  } finally {
    d.close();
  }
}

describe("the rows a usage report keeps", () => {
  it("answer as a fresh index does after files are added and one is read again", () => {
    writeUsageCorpus(join(root, "more"), 8, 11);
    writeUsageCorpus(home, 16);
    const db = join(root, "kept.db");
    const before = report(db, "session");
    const first = kept(db);
    expect([...first.keys()].filter((k) => k.startsWith("usage_rollup:")).sort()).toEqual([
      "usage_rollup:1:claude",
      "usage_rollup:1:codex",
    ]);
    // Nothing changed: the same answer, from the same kept rows.
    expect(report(db, "session")).toEqual(before);
    expect(kept(db)).toEqual(first);

    cpSync(join(root, "more", ".codex"), join(home, ".codex"), { recursive: true });
    cpSync(join(root, "more", ".claude"), join(home, ".claude"), { recursive: true });
    const cut = files(join(home, ".codex"))[0]!;
    const lines = readFileSync(cut, "utf8").split("\n");
    writeFileSync(cut, `${lines.slice(0, Math.floor(lines.length / 2)).join("\n")}\n`);

    const after = report(db, "session");
    expect(after).not.toEqual(before);
    const moved = kept(db);
    expect(moved.get("usage_generation:codex")).not.toBe(first.get("usage_generation:codex"));
    expect(moved.get("usage_generation:claude")).not.toBe(first.get("usage_generation:claude"));
    const fresh = join(root, "fresh.db");
    expect(after).toEqual(report(fresh, "session"));
    for (const by of ["day", "block", "model", "agent"]) expect(report(db, by), by).toEqual(report(fresh, by));
  });
});
