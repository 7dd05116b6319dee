/**
 * The built `cairn index` with nothing changed answers from a read-only look at the index, and prints exactly what
 * the full path prints (text and --json). The full path is forced by a lock file left by a process that is gone:
 * the quick look never runs beside a lock, and the full path takes a stale lock over.
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cairn } from "../helpers/cli.ts";
import { realFixturesDir } from "../helpers/transcripts.ts";

const FILES = [
  "codex/agtrace__rollout-2025-12-10T04-55-16-019b04ae-b1c6-7c72-a134-a4c2de66058c.jsonl",
  "claude/codemie__session-624a4a58.jsonl",
];
const dir = mkdtempSync(join(tmpdir(), "cairn-unchanged-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const root = join(dir, "t");
for (const f of FILES) {
  mkdirSync(join(root, f, ".."), { recursive: true });
  copyFileSync(join(realFixturesDir(), f), join(root, f));
}
const db = join(dir, "cairn.db");
const env = { HOME: dir, XDG_DATA_HOME: join(dir, "data") };
const deadPid = spawnSync(process.execPath, ["-e", "0"]).pid!;

function run(args: string[], full = false) {
  if (full) writeFileSync(`${db}.index-lock`, String(deadPid));
  const r = cairn(["index", root, "--db", db, ...args], { env });
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return r.stdout;
}
/** The run's duration is the one figure two runs may not share. */
const text = (out: string) => out.replace(/in [\d.]+ s \([\d.]+ MB\/s\)/, "in T s (R MB/s)");
const json = (out: string) => ({ ...(JSON.parse(out) as Record<string, unknown>), ms: 0 });

describe("cairn index with nothing changed", () => {
  it("prints what the full path prints, and every change still reaches the full path", () => {
    // The first run (no database yet) indexes everything.
    expect(json(run(["--json"]))).toMatchObject({ files: 2, changed: 2 });
    const quickText = run([]);
    expect(quickText).toMatch(/^indexed 2 files \(0 changed, 2 unchanged\), \d+ sessions, \+0 events, 0 problems/);
    expect(text(quickText)).toBe(text(run([], true)));
    const quickJson = json(run(["--json"]));
    expect(quickJson).toEqual(json(run(["--json"], true)));
    expect(quickJson).toMatchObject({ changed: 0, events: 0, vectors: { embedded: 0, pending: 0 }, problem_lines: [] });

    const line = {
      type: "user",
      message: { role: "user", content: "one more turn" },
      timestamp: new Date().toISOString(),
    };
    appendFileSync(join(root, FILES[1]!), `${JSON.stringify(line)}\n`);
    expect(json(run(["--json"]))).toMatchObject({ changed: 1, unchanged: 1 });

    rmSync(join(root, FILES[0]!));
    expect(json(run(["--json"]))).toMatchObject({ files: 1, gone: 1 });
    expect(json(run(["--json"]))).toEqual(json(run(["--json"], true)));
    expect(text(run([]))).toBe(text(run([], true)));
  });
});
