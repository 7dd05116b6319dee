/** Each ledger rule on a small constructed session, seen both in the folded ledger and in the rendered brief. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fold } from "../../src/resume/build.ts";
import { listCheckpoints } from "../../src/resume/checkpoints.ts";
import { createResumeEngine } from "../../src/resume/engine.ts";
import type { Ledger } from "../../src/resume/ledger-types.ts";
import { loadTimeline } from "../../src/resume/timeline.ts";
import { createTokenCounter } from "../../src/resume/tokens.ts";
import { type IndexedSessions, indexSessions, PiSession } from "./session-builder.ts";
import { CHECK_ERROR, CORRECTION, GOAL, LATEST, STORY_ID, story } from "./story.ts";

let ix: IndexedSessions;
let ledger: Ledger;
let text: string;
const counter = createTokenCounter();
const ledgerOf = (id: string): Ledger => fold(loadTimeline(ix.store, id), listCheckpoints(ix.store, id), null).ledger;
const briefOf = (id: string, budget = 4000) =>
  createResumeEngine({ store: ix.store, counter }).brief({ sessionId: id, budget });
const lines = (t: string, re: RegExp) => t.split("\n").filter((l) => re.test(l));

const REOPEN = "0000aaaa-aaaa-4bbb-8ccc-000000000002";
const RESOLVED = "0000aaaa-aaaa-4bbb-8ccc-000000000003";
const PYTEST_FAIL = "FAILED tests/test_api.py::test_login - AssertionError: 401 != 200\n1 failed, 3 passed in 0.2s";

beforeAll(() => {
  ix = indexSessions(
    story(),
    new PiSession(REOPEN)
      .user("make the api tests pass")
      .bash("python -m pytest tests", PYTEST_FAIL, 1)
      .edit("api/login.py", "return 401", "return 200")
      .bash("python -m pytest tests", "4 passed in 0.2s", 0)
      .bash("python -m pytest tests 2>&1 | tail -5", PYTEST_FAIL, 1),
    new PiSession(RESOLVED)
      .user("fix the build")
      .bash("npm run build", "src/a.ts(1,1): error TS2304: Cannot find name 'x'.", 2)
      .bash("cd /w/app && npm run build 2>&1 | tail", "src/a.ts(1,1): error TS2304: Cannot find name 'x'.", 2)
      .edit("src/a.ts", "x", "1")
      .bash("npm run build", "built in 1s", 0),
  );
  ledger = ledgerOf(STORY_ID);
  text = briefOf(STORY_ID).text;
});
afterAll(() => ix.close());

describe("ledger rules", () => {
  it("the goal and the latest request are quoted verbatim, with the requests before a short latest one", () => {
    expect(ledger.goal?.text).toBe(GOAL);
    expect(ledger.latest.map((m) => m.text)).toEqual([CORRECTION, LATEST]);
    expect(text).toContain(`**Goal** (turn 1): [e:${ledger.goal!.cites[0]}]\n    ${GOAL}`);
    expect(text).toMatch(new RegExp(`\\*\\*Latest request\\*\\* \\(turn 4\\): \\[e:\\w+\\]\\n {4}${LATEST}`));
  });

  it("constraints are the user's directive sentences, verbatim, and all of them reach the brief", () => {
    expect(ledger.constraints.map((c) => c.text)).toEqual([
      "Never touch the generated files under dist/.",
      "Make sure the tests stay green.",
      CORRECTION,
    ]);
    for (const c of ledger.constraints) expect(text).toContain(c.text);
  });

  it("decisions carry a status: approved → settled, a later one on the same topic → superseded, else open", () => {
    const status = Object.fromEntries(ledger.decisions.map((d) => [d.text.slice(0, 24), d.status]));
    expect(status).toMatchObject({
      "Decision: parse flags wi": "settled",
      "Decision: keep the logge": "superseded",
      "Decision: move the logge": "open",
    });
    expect(status[CORRECTION.slice(0, 24)]).toBe("settled"); // the user's own correction
    expect(lines(text, /^- open: /)).toEqual([
      expect.stringContaining("- open: Decision: move the logger to src/log.ts with a level option"),
    ]);
    expect(text).toMatch(/- superseded: Decision: keep the logger in src\/log\.ts/);
  });

  it("latest file states: added, modified with line counts, newest first", () => {
    const files = ledger.files.filter((f) => f.modified).map((f) => [f.path, f.edits, f.writes, f.added, f.removed]);
    expect(files).toEqual([
      ["src/log.ts", 0, 1, 1, 0],
      ["src/cli.ts", 1, 0, 2, 1],
      ["src/args.ts", 2, 0, 2, 2],
      ["PLAN.md", 0, 1, 4, 0],
    ]);
    const shown = lines(text, /^- [AMD] /).map((l) => l.replace(/ @\d+.*/, ""));
    expect(shown).toEqual([
      "- A src/log.ts +1 −0 (1 write)",
      "- M src/cli.ts +2 −1 (1 edit, 1 read)",
      "- M src/args.ts +2 −2 (2 edits)",
      "- A PLAN.md +4 −0 (1 write)",
    ]);
  });

  it("repeated failures collapse to one line with count, first and last position, open first", () => {
    const open = ledger.failures.filter((f) => f.status === "open");
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({ command: "npm run check", count: 3, status: "open" });
    const failing = lines(text, /^- ✗ `npm run check`/);
    expect(failing).toHaveLength(1);
    expect(failing[0]).toMatch(
      new RegExp(
        `^- ✗ \`npm run check\` ×3 \\(@${open[0]!.first}–${open[0]!.last}\\): src/cli\\.ts\\(12,5\\): error TS2304: Cannot find name 'verbose'\\.`,
      ),
    );
    expect(text.indexOf("- ✗ `npm run check`")).toBeLessThan(text.indexOf("- ✓ `npx tsc --noEmit` failed ×1"));
  });

  it("a failure fixed by a later passing run is resolved, one line, with where it passed", () => {
    const l = ledgerOf(RESOLVED);
    expect(l.failures).toHaveLength(1); // two spellings of `npm run build`, one canonical command
    expect(l.failures[0]).toMatchObject({ command: "npm run build", count: 2, status: "resolved" });
    const t = briefOf(RESOLVED).text;
    expect(lines(t, /npm run build` failed/)).toEqual([
      expect.stringMatching(
        /^- ✓ `npm run build` failed ×2 \(@\d+–\d+\) then passed @\d+: src\/a\.ts\(1,1\): error TS2304/,
      ),
    ]);
  });

  it("a failure that comes back after it was resolved reopens its group", () => {
    const l = ledgerOf(REOPEN);
    const group = l.failures.filter((f) => f.signature.includes("test_login"));
    expect(group).toHaveLength(1);
    expect(group[0]).toMatchObject({ status: "open", count: 2 });
  });

  it("the last check keeps its failing tests and top error lines verbatim", () => {
    expect(ledger.checks[0]).toMatchObject({ command: "npm run check", status: "fail", runs: 3, fails: 3 });
    expect(text).toContain("    failing: src/cli.ts\n");
    expect(text).toContain(`    error: ${CHECK_ERROR}\n`);
    const pytest = briefOf(REOPEN).text;
    expect(pytest).toContain("failing: tests/test_api.py::test_login");
  });

  it("open plan items come from the plan file's checkboxes; done ones are counted", () => {
    expect(ledger.plan.map((p) => [p.text, p.state])).toEqual([
      ["add the flag", "completed"],
      ["document the flag in README.md", "pending"],
      ["add a test for --verbose", "pending"],
    ]);
    expect(text).toContain("### Plan (open items; 1 done)\n- [ ] document the flag in README.md (PLAN.md)");
  });

  it("the current step: the last checkpoint and the item in progress", () => {
    expect(ledger.step).toMatchObject({ checkpointStep: 1, target: null, current: "document the flag in README.md" });
    expect(text).toMatch(/\*\*Step\*\*: last checkpoint: step 1 @\d+ .*in progress: document the flag in README\.md/);
  });

  it("every ledger line cites the events it came from", () => {
    const body = text.slice(text.indexOf("## Ledger"), text.indexOf("\n## ", text.indexOf("## Ledger") + 1));
    for (const l of body.split("\n"))
      if (/^(- |\*\*)/.test(l)) expect(l, l).toMatch(/\[e:[0-9a-f]{16}(,[0-9a-f]{16})*\]/);
  });
});

describe("pasted output in the user's messages", () => {
  const PASTED = "0000aaaa-aaaa-4bbb-8ccc-000000000009";
  const LOG = [
    "Run npm run check",
    "",
    "> check",
    "> biome check . && tsc",
    "",
    "src/a.ts:3:7 lint/style/useConst ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━",
    "  × This let declares a variable that is only assigned once.",
    '  {"isError":false,"content":[{"type":"text","text":"never use var"}]}',
    "Found 1 error.",
    "Error: Process completed with exit code 1.",
  ].join("\n");
  let px: IndexedSessions;
  beforeAll(() => {
    px = indexSessions(
      new PiSession(PASTED)
        .user(`ci fails, don't touch the workflow file:\n\n${LOG}`)
        .edit("src/a.ts", "let x = 1", "const x = 1"),
    );
  });
  afterAll(() => px.close());

  it("constraints read only what was typed; the request names the paste; its failure is an open check failure", () => {
    const l = fold(loadTimeline(px.store, PASTED), listCheckpoints(px.store, PASTED), null).ledger;
    expect(l.constraints.map((c) => c.text)).toEqual(["ci fails, don't touch the workflow file:"]);
    expect(l.goal?.text).toBe(
      "ci fails, don't touch the workflow file:\n\n[pasted output, 10 lines: × This let declares a variable that is only assigned once.]",
    );
    expect(l.failures[0]).toMatchObject({ command: "npm run check", status: "open", isCheck: true });
    expect(l.checks[0]).toMatchObject({ command: "npm run check", status: "fail" });
    const brief = createResumeEngine({ store: px.store, counter }).brief({ sessionId: PASTED, budget: 4000 }).text;
    // The ledger never quotes the paste (the verbatim tail may show the message, bounded, as the user sent it).
    const ledgerPart = brief.slice(brief.indexOf("## Ledger"), brief.indexOf("\n## ", brief.indexOf("## Ledger")));
    expect(ledgerPart).toContain("[pasted output, 10 lines");
    expect(ledgerPart).not.toContain('"isError"');
  });
});

describe("requests not done", () => {
  const ID = "0000aaaa-aaaa-4bbb-8ccc-00000000000a";
  let rx: IndexedSessions;
  beforeAll(() => {
    rx = indexSessions(
      new PiSession(ID)
        .user("make the api tests pass")
        .bash("python -m pytest tests", PYTEST_FAIL, 1)
        .assistant("One test still fails: the login returns 401.")
        .user("add a changelog entry for the release")
        .write("CHANGELOG.md", "## 1.2.0\n- login fix\n")
        .assistant("Done, the changelog has the entry.")
        .user("now bump the version")
        .bash("python -m pytest tests", "4 passed in 0.2s", 0),
    );
  });
  afterAll(() => rx.close());

  it("the ledger lists the requests that did not end done with their last outcome, and the one in progress", () => {
    const l = fold(loadTimeline(rx.store, ID), listCheckpoints(rx.store, ID), null).ledger;
    expect(l.requests.map((r) => [r.text, r.outcome, r.why])).toEqual([
      ["make the api tests pass", "failed", "the last check failed"],
      ["now bump the version", "in progress", "last check passed"],
    ]);
    const brief = createResumeEngine({ store: rx.store, counter }).brief({ sessionId: ID, budget: 4000 }).text;
    expect(brief).toContain("### Requests not done (last outcome)");
    expect(brief).toMatch(/- \(turn 1\) failed \(the last check failed\): make the api tests pass \[e:[\w,]+\]/);
  });
});

describe("the latest request, answered", () => {
  const ID = "0000aaaa-aaaa-4bbb-8ccc-00000000000b";
  let rx: IndexedSessions;
  beforeAll(() => {
    rx = indexSessions(
      new PiSession(ID)
        .user("run the api tests once more")
        .bash("python -m pytest tests", "4 passed in 0.2s", 0)
        .assistant("All four tests pass."),
    );
  });
  afterAll(() => rx.close());

  it("waits for the user when the agent's reply is the last thing that happened, and says so with the reply cited", () => {
    const l = fold(loadTimeline(rx.store, ID), listCheckpoints(rx.store, ID), null).ledger;
    expect(l.requests.map((r) => [r.text, r.outcome, r.why])).toEqual([
      ["run the api tests once more", "awaiting the user", "last check passed; the agent answered and stopped"],
    ]);
    expect(l.requests[0]!.cites).toHaveLength(3);
  });
});
