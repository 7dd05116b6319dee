/**
 * Issue 17's wrong-failure and stale-plan cases on constructed pi sessions (the real transcripts hold no compound
 * resolution or a plan call at a cut): a compound line resolves the failure of a part whose success its exit proves,
 * and the plan is the one of the last plan call before the cut, even when its result is not in yet.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fold } from "../../src/resume/build.ts";
import { listCheckpoints } from "../../src/resume/checkpoints.ts";
import type { Ledger } from "../../src/resume/ledger-types.ts";
import { loadTimeline } from "../../src/resume/timeline.ts";
import { rankSymbols } from "../../src/resume/working-set.ts";
import { type IndexedSessions, indexSessions, PiSession } from "./session-builder.ts";

const REBASE = "0000aaaa-aaaa-4bbb-8ccc-000000000017";
const SEMICOLON = "0000aaaa-aaaa-4bbb-8ccc-000000000018";
const PLAN = "0000aaaa-aaaa-4bbb-8ccc-000000000019";
const NAMES = "0000aaaa-aaaa-4bbb-8ccc-000000000020";
const COMMANDS = "0000aaaa-aaaa-4bbb-8ccc-000000000021";
const URL_FAIL = "0000aaaa-aaaa-4bbb-8ccc-000000000022";
const MOVED_ON = "0000aaaa-aaaa-4bbb-8ccc-000000000023";
const TS_A = "src/a.ts(3,7): error TS2304: Cannot find name 'chalk'.";
const TS_B = "src/b.ts(9,1): error TS2322: Type 'string' is not assignable to type 'number'.";
const CONFLICT = "CONFLICT (content): Merge conflict in src/a.ts\nerror: could not apply 1a2b3c4... change a";
const UNMERGED = "error: Committing is not possible because you have unmerged files.";

let ix: IndexedSessions;
beforeAll(() => {
  ix = indexSessions(
    new PiSession(REBASE)
      .user("rebase onto main")
      .bash("git rebase origin/main", CONFLICT, 1)
      .bash("git rebase --continue", UNMERGED, 128)
      .edit("src/a.ts", "<<<<<<< HEAD", "merged")
      .bash("git add . && git rebase --continue", "Successfully rebased and updated refs/heads/x.", 0),
    new PiSession(SEMICOLON)
      .user("rebase onto main")
      .bash("git rebase --continue", UNMERGED, 128)
      .bash("git rebase --continue; echo finished", `${UNMERGED}\nfinished`, 0),
    new PiSession(PLAN)
      .user("plan it")
      .tool(
        "TodoWrite",
        { todos: [{ content: "Write the reader", status: "in_progress", activeForm: "Writing" }] },
        "Todos have been modified successfully.",
      )
      .tool(
        "TodoWrite",
        {
          todos: [
            { content: "Write the reader", status: "completed", activeForm: "Writing" },
            { content: "Test the reader", status: "in_progress", activeForm: "Testing" },
          ],
        },
        "Todos have been modified successfully.",
      ),
    new PiSession(NAMES)
      .user("use mcp__browser__click to open the page, then fix parseConfig in src/config.ts")
      .assistant("I will call mcp__browser__navigate first, then read parseConfig and loadSettings.")
      .read("src/config.ts", "export function parseConfig(text: string) {\n  return loadSettings(text);\n}"),
    new PiSession(COMMANDS)
      .user("commit the work")
      .bash("git add .", "", 0)
      .bash("git add .", "", 0)
      .bash("git add -p src/a.ts", "error: pathspec 'src/a.ts' did not match any files", 1)
      .bash("git status --porcelain", " M src/a.ts", 0)
      .bash('git commit -m "first"', "[main 1a2b3c4] first", 0)
      .bash('git commit -m "second"', "[main 5d6e7f8] second", 0),
    new PiSession(URL_FAIL)
      .user("push the branch")
      .bash(
        "git push http://dev.example.com/org/repo.git main",
        "fatal: unable to access 'http://dev.example.com/org/repo.git/': Could not resolve host: dev.example.com",
        128,
      ),
    new PiSession(MOVED_ON)
      .user("make the type check pass")
      .bash("npx tsc --noEmit", TS_A, 2)
      .edit("src/a.ts", "chalk.red", "red")
      .bash("npx tsc --noEmit", `${TS_B}\n${TS_A.replace("(3,7)", "(4,7)")}`, 2)
      .edit("src/b.ts", "x", "y")
      .bash("npx tsc --noEmit", TS_B, 2),
  );
});
afterAll(() => ix.close());

const ledgerAt = (id: string, at?: string): Ledger =>
  fold(loadTimeline(ix.store, id, at ? { at } : {}), listCheckpoints(ix.store, id), null).ledger;

describe("the failure ledger", () => {
  it("a compound line's success resolves the failed runs of its parts and of the same command with other words", () => {
    const failures = ledgerAt(REBASE).failures;
    expect(failures.map((f) => [f.command, f.status])).toEqual([
      ["git rebase --continue", "resolved"],
      ["git rebase origin/main", "resolved"],
    ]);
  });

  it("summarises a failure with its URL whole, not folded like a path", () => {
    const [failure] = ledgerAt(URL_FAIL).failures;
    expect(failure?.signature).toContain("http://dev.example.com/");
    expect(failure?.signature).not.toContain("httrepo");
  });

  it("a later failing run of the same command that no longer reports an error answers it; one that does, not", () => {
    const failures = ledgerAt(MOVED_ON).failures;
    // The second run still reports a.ts's error (at another line, after b.ts's); only the third run got past it.
    expect(failures.map((f) => [f.signature.slice(0, 12), f.status, f.count, f.resolvedBy?.failed ?? false])).toEqual([
      ["b.ts(N,N): e", "open", 2, false],
      ["a.ts(N,N): e", "resolved", 1, true],
    ]);
  });

  it("a part before `;` is not proven by the line's exit status", () => {
    const failures = ledgerAt(SEMICOLON).failures;
    expect(failures.map((f) => [f.command, f.status])).toEqual([["git rebase --continue", "open"]]);
  });
});

describe("the plan as of the cut", () => {
  it("is the last plan call before the cut, even before its result arrived", () => {
    const calls = ix.store.sessionEvents(PLAN).filter((e) => e.event_type === "tool_call");
    expect(calls).toHaveLength(2);
    const atSecond = ledgerAt(PLAN, calls[1]!.event_id).plan.map((p) => [p.text, p.state]);
    expect(atSecond).toEqual([
      ["Write the reader", "completed"],
      ["Test the reader", "in_progress"],
    ]);
    const atFirst = ledgerAt(PLAN, calls[0]!.event_id).plan.map((p) => [p.text, p.state]);
    expect(atFirst).toEqual([["Write the reader", "in_progress"]]);
  });
});

describe("the commands run", () => {
  it("are shown as they were run, flags and arguments included, grouped by head", () => {
    const commands = ledgerAt(COMMANDS).commands.map((c) => [c.head, c.runs, c.forms.map((f) => [f.form, f.runs])]);
    // A failed run counts against its own form.
    const add = ledgerAt(COMMANDS).commands.find((c) => c.head === "git add");
    expect(add?.forms.map((f) => f.fails)).toEqual([0, 1]);
    expect(commands).toEqual(
      expect.arrayContaining([
        [
          "git add",
          3,
          [
            ["git add .", 2],
            ["git add -p src/a.ts", 1],
          ],
        ],
        // A commit is named with its message, the latest first.
        [
          "git commit",
          2,
          [
            ["git commit -m second", 1],
            ["git commit -m first", 1],
          ],
        ],
        ["git status", 1, [["git status --porcelain", 1]]],
      ]),
    );
  });
});

describe("the names in play", () => {
  it("are the code's identifiers, not the harness's MCP tool names", () => {
    const names = rankSymbols(loadTimeline(ix.store, NAMES)).map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(["parseConfig", "loadSettings"]));
    expect(names.filter((n) => n.startsWith("mcp__"))).toEqual([]);
  });
});
