/**
 * The ledger keeps commands as they were run and failed reads as failures: each command of a line is named and
 * shown verbatim, flags and arguments included (a very long one clipped at its values first), and a shell read of
 * a missing file is a failure whatever else `cat` is, while a search that found nothing is not.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fold } from "../../src/resume/build.ts";
import { listCheckpoints } from "../../src/resume/checkpoints.ts";
import { createResumeEngine } from "../../src/resume/engine.ts";
import { commandHead, commandParts, shownCommand } from "../../src/resume/entities.ts";
import type { Ledger } from "../../src/resume/ledger-types.ts";
import { loadTimeline } from "../../src/resume/timeline.ts";
import { createTokenCounter } from "../../src/resume/tokens.ts";
import { type IndexedSessions, indexSessions, PiSession } from "./session-builder.ts";

describe("head and shown text of a command", () => {
  // [canonical command, head]: the brief shows every one of them verbatim
  const table: Array<[string, string | null]> = [
    ["git add -A", "git add"],
    ["git commit -m 'Fix add() in math.js'", "git commit"],
    ["git commit -am wip", "git commit"],
    ["git -C /repo status --porcelain", "git status"],
    [`node -e 'console.log(require("./math.js").add(2, 3))'`, "node -e"],
    ["node -pe process.version", "node -pe"],
    ["node test.js", "node test.js"],
    ["python3 -c 'import app'", "python3 -c"],
    ["python3 -m pytest -k login", "python3 -m pytest"],
    ["npm --prefix web run build", "npm run build"],
    ["npm run -s lint", "npm run lint"],
    ["npm test -- --run -t 'quoted strings'", "npm test"],
    ["make -C sub test", "make test"],
    ["cargo +nightly test", "cargo test"],
    ["npx -p typescript tsc --noEmit", "npx tsc"],
    ["cat missing.txt", null],
  ];
  for (const [canonical, head] of table)
    it(canonical, () => {
      const h = commandHead(canonical);
      expect([h, h === null ? null : shownCommand(canonical)]).toEqual([head, head === null ? null : canonical]);
    });

  it("a very long command keeps every flag: its long values are clipped first", () => {
    const code = `console.log(${"x".repeat(300)})`;
    const shown = shownCommand(`node --max-old-space-size=4096 -e '${code}' -- --run -t quoted --reporter verbose`);
    expect(shown.length).toBeLessThanOrEqual(200);
    expect(shown).toMatch(
      /^node --max-old-space-size=4096 -e 'console\.log\(x+…' -- --run -t quoted --reporter verbose$/,
    );
    const line = `npm run build -- --mode production && ${"npm test -- --run && ".repeat(10)}npm run lint`;
    expect(shownCommand(line)).toBe(`${line.slice(0, 199)}…`);
  });

  it("a line is its commands, each in canonical form; after `||` one may not have run", () => {
    expect(commandParts(`git add -A && git commit -m 'Fix add()'`)).toEqual([
      { text: "git add -A", sure: true },
      { text: "git commit -m 'Fix add()'", sure: true },
    ]);
    expect(commandParts("npm ci || npm install; npm test | tee log")).toEqual([
      { text: "npm ci", sure: true },
      { text: "npm install", sure: false },
      { text: "npm test", sure: false },
    ]);
  });
});

const ID = "0000aaaa-aaaa-4bbb-8ccc-00000000c0de";
let ix: IndexedSessions;
let ledger: Ledger;
let text: string;

beforeAll(() => {
  ix = indexSessions(
    new PiSession(ID)
      .user("show the notes, fix add, commit")
      .bash("cat missing.txt", "cat: missing.txt: No such file or directory", 1)
      .bash("head -5 gone.md", "head: cannot open 'gone.md' for reading: No such file or directory", 1)
      .bash("sed -n '1,3p' absent.js", "sed: can't read absent.js: No such file or directory", 2)
      .bash("grep -rn TODO src", "", 1)
      .bash(`node -e 'console.log(require("./math.js").add(2, 3))'`, "5", 0)
      .bash(`git add -A && git commit -m "Fix add() in math.js"`, "[main 1a2b3c4] Fix add() in math.js", 0)
      .bash(`git push && git tag v1`, "error: failed to push some refs", 1)
      .assistant("Done."),
  );
  ledger = fold(loadTimeline(ix.store, ID), listCheckpoints(ix.store, ID), null).ledger;
  text = createResumeEngine({ store: ix.store, counter: createTokenCounter() }).brief({
    sessionId: ID,
    budget: 6000,
  }).text;
});
afterAll(() => ix.close());

describe("the ledger of a session that read missing files and committed", () => {
  it("failed reads are failures, with their error; a search that found nothing is not", () => {
    expect(ledger.failures.map((f) => [f.command, f.status])).toEqual(
      expect.arrayContaining([
        ["cat missing.txt", "open"],
        ["head -5 gone.md", "open"],
        ["sed -n 1,3p absent.js", "open"],
      ]),
    );
    expect(ledger.failures.some((f) => f.command.startsWith("grep"))).toBe(false);
    expect(text).toMatch(/✗ `cat missing\.txt` ×1 \(@\d+\): cat: missing\.txt: No such file or directory/);
  });

  it("the brief shows a failed read as failed and a search that found nothing as a no, neither as ok", () => {
    expect(text).toMatch(/bash `cat missing\.txt` → ✗ cat: missing\.txt: No such file or directory/);
    expect(text).toMatch(/bash `grep -rn TODO src` → no \(exit 1, /);
    expect(text).not.toMatch(/`cat missing\.txt` → ok/);
  });

  it("a file that could not be read is not listed as read", () => {
    expect(ledger.files.map((f) => f.path)).not.toContain("missing.txt");
  });

  it("each command of a line is named, the commit with its message, inline code with its option", () => {
    const forms = ledger.commands.flatMap((c) => c.forms.map((f) => f.form));
    expect(forms).toEqual(
      expect.arrayContaining([
        "git add -A",
        "git commit -m 'Fix add() in math.js'",
        `node -e 'console.log(require("./math.js").add(2, 3))'`,
      ]),
    );
    expect(text).toContain("`git commit -m 'Fix add() in math.js'` ×1");
    // A line that failed is one run of the whole line: which of its commands failed, the log does not say.
    expect(forms).toContain("git push && git tag v1");
    expect(forms).not.toContain("git tag");
  });
});
