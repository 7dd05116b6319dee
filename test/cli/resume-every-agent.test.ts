/**
 * `cairn resume` on what each agent's own CLI wrote (test/fixtures/clients, newest version of each), all in one
 * fresh HOME found by `cairn index` itself: every agent's brief names the latest request and the failing test run
 * the session went on to fix.
 */
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareVersions } from "../../scripts/clients/install.ts";
import { cairn } from "../helpers/cli.ts";
import { REPO } from "../helpers/transcripts.ts";

const ROOT = join(REPO, "test", "fixtures", "clients");
const agents = readdirSync(ROOT).sort();
const home = mkdtempSync(join(tmpdir(), "cairn-every-agent-"));
const env = { HOME: home, XDG_DATA_HOME: join(home, ".local", "share"), XDG_CONFIG_HOME: join(home, ".config") };
let sessions: Array<{ session_id: string; provider: string; kind: string; started_at: string | null }> = [];

beforeAll(() => {
  for (const agent of agents) {
    const newest = readdirSync(join(ROOT, agent)).sort(compareVersions).at(-1)!;
    cpSync(join(ROOT, agent, newest, "home"), home, { recursive: true });
  }
  expect(cairn(["index"], { env }).code).toBe(0);
  sessions = JSON.parse(cairn(["sessions", "--all", "--json"], { env }).stdout);
}, 180_000);
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe.each(agents)("cairn resume on %s's own transcript", (agent) => {
  it("names the latest request and the test run that failed, then passed", () => {
    const mine = sessions.filter((s) => s.provider === agent && s.kind !== "subagent");
    expect(mine.length).toBeGreaterThan(0);
    // The session that holds the conversation's last request (a compaction may start a child session).
    const briefs = mine.map((s) => cairn(["resume", s.session_id], { env }));
    for (const b of briefs) expect(b.code).toBe(0);
    const text = briefs.map((b) => b.stdout).join("\n");
    expect(text).toMatch(/\*\*Latest request\*\* \(turn \d+\): .*\n\s+"?TASK-C: run the test once more/);
    expect(text).toMatch(/`node test\.js` failed ×\d+ \(@\d+\) then passed/);
  }, 120_000);
});
