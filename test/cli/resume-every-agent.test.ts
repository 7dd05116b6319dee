/**
 * `cairn resume` on what each agent's own CLI wrote (test/fixtures/clients, newest version of each): all in one
 * fresh HOME found by `cairn index` itself, every agent's brief names the latest request and the failing test run
 * the session went on to fix, and the overview names every agent; and in each agent's own HOME, `resume --latest`
 * (and `--cwd` the project, and MCP's `resume_brief` without a session) briefs the newest work: a `codex exec` run,
 * the fork pi went on in, a Droid compaction's continuation together with the work before it.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareVersions } from "../../scripts/clients/install.ts";
import { cairn } from "../helpers/cli.ts";
import { copyClientHome } from "../helpers/client-home.ts";
import { REPO } from "../helpers/transcripts.ts";
import { connectCairn } from "../mcp/client.ts";

const ROOT = join(REPO, "test", "fixtures", "clients");
const agents = readdirSync(ROOT).sort();
const home = mkdtempSync(join(tmpdir(), "cairn-every-agent-"));
const envOf = (h: string) => ({
  HOME: h,
  XDG_DATA_HOME: join(h, ".local", "share"),
  XDG_CONFIG_HOME: join(h, ".config"),
});
const env = envOf(home);
const newestOf = (agent: string) => readdirSync(join(ROOT, agent)).sort(compareVersions).at(-1)!;
let sessions: Array<{ session_id: string; provider: string; kind: string; started_at: string | null }> = [];
/**
 * Agents whose transcripts keep no exit status (Open Interpreter's console output is all there is): the brief names
 * the run whose output shows the failure, and gives the later runs no verdict it could not know.
 */
const NO_EXIT_STATUS = new Set(["interpreter"]);
const TEST_RUNS = (agent: string) =>
  NO_EXIT_STATUS.has(agent)
    ? /^- ✗ `node test\.js` ×1 \(@\d+\): FAIL add[\s\S]*^- \? test `node test\.js` @\d+ \(\d+ runs, 1 failed\)/m
    : /`node test\.js` failed ×\d+ \(@\d+\) then passed/;

beforeAll(() => {
  for (const agent of agents) copyClientHome(join(ROOT, agent, newestOf(agent), "home"), home);
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
    expect(text).toMatch(TEST_RUNS(agent));
  }, 120_000);
});

describe("the overview of every agent's transcripts", () => {
  it("names each agent among the sessions people worked in (a `codex exec` run is one)", () => {
    const overview = cairn(["--json"], { env });
    expect(overview.code, overview.stderr).toBe(0);
    const byAgent = (JSON.parse(overview.stdout) as { by_agent: Array<{ provider: string }> }).by_agent;
    expect(byAgent.map((a) => a.provider).sort()).toEqual(agents);
  }, 120_000);
});

/** The conversation's last request in each agent's HOME, where the harness drove it somewhere else than TASK-C. */
const NEWEST_REQUEST: Record<string, string> = { pi: "TASK-D: show missing.txt" };
/** The kind of session the newest work is, where it is not a main session. */
const NEWEST_KIND: Record<string, string> = { codex: "exec", pi: "fork" };

describe.each(agents)("cairn resume --latest in %s's own HOME", (agent) => {
  const own = mkdtempSync(join(tmpdir(), `cairn-latest-${agent}-`));
  const ownEnv = envOf(own);
  let brief = "";
  let sessions: Array<{ session_id: string; kind: string; parent_session_id: string | null }> = [];
  const headerSession = (text: string) => /^# Resume brief — session (\S+),/m.exec(text)?.[1];

  beforeAll(() => {
    copyClientHome(join(ROOT, agent, newestOf(agent), "home"), own);
    expect(cairn(["index"], { env: ownEnv }).code).toBe(0);
    sessions = JSON.parse(cairn(["sessions", "--all", "--json"], { env: ownEnv }).stdout);
    const run = cairn(["resume", "--latest", "--budget", "8000"], { env: ownEnv });
    expect(run.code, run.stderr).toBe(0);
    brief = run.stdout;
  }, 180_000);
  afterAll(() => rmSync(own, { recursive: true, force: true }));

  it("briefs the newest work: its latest request, with the goal, files and failures of the work before it", () => {
    const latest = NEWEST_REQUEST[agent] ?? "TASK-C: run the test once more";
    expect(brief).toMatch(
      new RegExp(
        `\\*\\*Latest request\\*\\* \\(turn \\d+\\): .*\\n\\s+"?${latest.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`,
      ),
    );
    expect(brief).toMatch(/\*\*Goal\*\* \(turn 1\): .*\n\s+"?TASK-A: /);
    expect(brief).toMatch(/^- M (.*\/)?math\.js /m);
    expect(brief).toMatch(/^- A (.*\/)?NOTES\.md /m);
    expect(brief).toMatch(TEST_RUNS(agent));
    const session = sessions.find((s) => s.session_id === headerSession(brief));
    expect(session?.kind).toBe(NEWEST_KIND[agent] ?? "main");
  });

  it("`cairn sessions` lists it without --all", () => {
    const listed = JSON.parse(cairn(["sessions", "--json"], { env: ownEnv }).stdout) as Array<{ session_id: string }>;
    expect(listed.map((s) => s.session_id)).toContain(headerSession(brief));
  });

  // mini-swe-agent's trajectory and Open Interpreter's conversation name no folder: no session is the project's.
  it.skipIf(agent === "mini" || agent === "interpreter")(
    "`--cwd` the project's folder and MCP without a session brief the same session",
    async () => {
      // An agent that keeps its sessions in the project's folder (Crush) was run in a project inside its HOME.
      const project = existsSync(join(own, "project")) ? join(own, "project") : `/tmp/cairn-clients/${agent}/project`;
      const here = cairn(["resume", "--cwd", project, "--budget", "2000"], { env: ownEnv });
      expect(here.code, here.stderr).toBe(0);
      expect(headerSession(here.stdout)).toBe(headerSession(brief));
      const mcp = await connectCairn(join(own, ".local", "share", "cairn", "cairn.db"), ownEnv);
      try {
        const r = await mcp.call("resume_brief", {});
        expect(r.isError, r.text).toBe(false);
        expect(headerSession(r.text)).toBe(headerSession(brief));
      } finally {
        await mcp.close();
      }
    },
    120_000,
  );

  if (agent === "droid")
    it("a compaction's continuation is briefed with the session it carries on", () => {
      const next = sessions.find((s) => s.session_id === headerSession(brief))!;
      expect(next.parent_session_id).not.toBeNull();
      expect(brief).toContain(`carrying on session ${next.parent_session_id} (`);
      expect(brief).toMatch(/\*\*Earlier request\*\* \(turn 2\): .*\n\s+TASK-B: /);
    });

  if (agent === "pi")
    it("a read of a missing file is a failure; commands are ledgered as run", () => {
      expect(brief).toMatch(/^- ✗ `cat missing\.txt` ×1 \(@\d+\): cat: missing\.txt: No such file or directory/m);
      expect(brief).toMatch(/bash `cat missing\.txt` → ✗ cat: missing\.txt: No such file or directory/);
      const commands = /^\*\*Commands run\*\*: (.*)$/m.exec(brief)?.[1] ?? "";
      expect(commands).toContain("`git add -A` ×1");
      expect(commands).toContain("`git commit -m 'Fix add() in math.js'` ×1");
      expect(commands).toContain("`node -e 'console.log(require(\"./math.js\").add(2, 3))'` ×1");
    });
});
