/**
 * Hermes' token totals come from `session_model_usage`: a database without that table (an older schema) is still
 * read, with no usage row; with it, each session's row is one record of its running total, timed at `last_seen`.
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { type TempIndex, tempIndex, withStore } from "../helpers/temp-index.ts";
import { REPO } from "../helpers/transcripts.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-hermes-usage-"));
const indexes: TempIndex[] = [];
afterAll(() => {
  for (const i of indexes) i.remove();
  rmSync(dir, { recursive: true, force: true });
});

let copies = 0;
function home(): string {
  const h = join(dir, `hermes-${copies++}`);
  cpSync(join(REPO, "test", "fixtures", "clients", "hermes", "0.19.0", "home"), h, { recursive: true });
  return h;
}

function read(h: string) {
  const index = tempIndex("cairn-hermes-usage-", [h]);
  indexes.push(index);
  return withStore(index.db, (s) => ({ usage: s.usageCalls(), sessions: s.sessionCount() }));
}

describe("Hermes' session totals", () => {
  it("are one record per session, route and task, at the row's last_seen", () => {
    const { usage } = read(home());
    const main = usage.find((r) => r.input === 1801000);
    expect(main).toMatchObject({ provider: "hermes", model: "fake-coder", output: 240 });
    expect(main?.timestamp).toBe(new Date(1796570245.590965 * 1000).toISOString());
    expect(usage.map((r) => r.call).sort()).toEqual([
      "hermes:20261206_151703_86f04e|fake-coder|auto|http://127.0.0.1:37577/v1/||compression",
      "hermes:20261206_151703_86f04e|fake-coder|custom|http://127.0.0.1:37577/v1||",
      "hermes:20261206_151710_d2335a|fake-coder|custom|http://127.0.0.1:37577/v1||",
    ]);
  });

  it("are absent from a database without session_model_usage, whose sessions are read all the same", () => {
    const h = home();
    const db = new Database(join(h, ".hermes", "state.db"));
    db.exec("DROP TABLE session_model_usage");
    db.close();
    const { usage, sessions } = read(h);
    expect(usage).toEqual([]);
    expect(sessions).toBeGreaterThan(0);
    expect(sessions).toBe(read(home()).sessions);
  });
});
