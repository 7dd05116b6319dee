/**
 * The Ask box and AI Resume in the terminal UI, in tmux against a fake OpenAI-compatible model on 127.0.0.1: the
 * answer streams in, its citations are checked (an invented one caught), a cited event opens in its timeline; AI
 * Resume shows the accepted brief, or why it fell back to the deterministic one; without a model, the CLI's message.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { blockWith, type FakeModel, faithfulBrief, startFakeModel } from "../helpers/fake-openai.ts";
import { type TempIndex, tempIndex } from "../helpers/temp-index.ts";
import { realFixturesDir } from "../helpers/transcripts.ts";
import { hasTmux } from "../pi/helpers/tmux.ts";
import { startCairnTui, type TuiRun } from "./tui-tmux.ts";

let index: TempIndex;
let fake: FakeModel;
let run: TuiRun | undefined;
let scratch: string | undefined;

beforeAll(async () => {
  index = tempIndex("cairn-tui-ask-", [realFixturesDir()]);
  fake = await startFakeModel();
});
afterAll(async () => {
  index?.remove();
  await fake?.close();
});
afterEach(() => {
  run?.kill();
  run = undefined;
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
  fake.hold = null;
});

function start(env: Record<string, string> = {}): TuiRun {
  scratch = mkdtempSync(join(tmpdir(), "cairn-tui-ask-"));
  run = startCairnTui({ dir: scratch, db: index.db, env });
  return run;
}

const withModel = () => ({ CAIRN_ASK_URL: fake.url, CAIRN_ASK_MODEL: "fake-model" });
const selectedRight = (r: TuiRun, screen: string) => r.right(screen).find((row) => row.startsWith("▸")) ?? "";

/** Opens the real pi session through a search, its timeline focused. */
async function openPiSession(r: TuiRun): Promise<void> {
  await r.waitFor(/Sessions \(\d+\)/);
  r.sendKeys("/");
  r.sendText("provider:pi test:fail");
  await r.waitFor(/Results \([1-9]\d*\)[^\n]*\n.pi +\d/);
  r.sendKeys("Enter", "Enter");
  await r.waitFor(/\[1 Timeline\][^\n]*\n[^\n]*│pi pi-mono/);
}

describe.skipIf(!hasTmux())("cairn tui Ask and AI Resume (tmux, fake model)", () => {
  it("streams an answer, checks its citations, and a cited event opens in its timeline", {
    timeout: 120_000,
  }, async () => {
    let release: () => void = () => {};
    fake.hold = new Promise<void>((r) => {
      release = r;
    });
    fake.reply = (ex) => [
      `The build failed on error TS2305 [e:${blockWith(ex.user, "TS2305")}]. `,
      "Then the repository was deleted [e:0123456789abcdef].",
    ];
    const r = start(withModel());
    await r.waitFor(/Sessions \(\d+\)/);
    r.sendKeys("A");
    await r.waitFor(/^ask: .*\(all history\)/m);
    r.sendText("why did the build fail with TS2305?");
    r.sendKeys("Enter");
    // The first piece is on screen while the rest is held back: streamed, not printed at the end.
    let screen = await r.waitFor("(streaming)");
    expect(screen).toContain("[5 Ask]");
    expect(screen).toContain("The build failed on error TS2305");
    expect(screen).not.toContain("checked:");
    release();
    screen = await r.waitFor("checked: 1 of 2 claims cite evidence that supports them");
    expect(screen).toContain("unsupported: Then the repository was deleted");
    expect(screen).toContain("is no event in the index (invented)");
    expect(screen).toContain("Cited events");
    expect(fake.seen.at(-1)?.user).toContain("TS2305");

    // n goes to the first line that leads to an event (the answer's cited sentence); Enter opens it.
    r.sendKeys("g", "n");
    screen = await r.waitUntil("a cited line selected", (s) => /\[e:[0-9a-f]{16}\]/.test(selectedRight(r, s)));
    const cited = /\[e:([0-9a-f]{16})\]/.exec(selectedRight(r, screen))![1]!;
    r.sendKeys("Enter");
    screen = await r.waitFor(`at [e:${cited}]`);
    expect(screen).toContain("[1 Timeline]");
    r.sendKeys("C-c");
    await r.waitFor("cairn exited 0");
  });

  it("AI Resume shows the accepted brief, then says why it fell back when a fact is dropped", {
    timeout: 120_000,
  }, async () => {
    fake.reply = (ex) => faithfulBrief(ex);
    const r = start(withModel());
    await openPiSession(r);
    r.sendKeys("R");
    let screen = await r.waitFor(/AI Resume accepted \(.*fake-model.*\)/);
    expect(screen).toContain("[3 Brief]");
    // Rendered for a person: list items as bullets, citations as numbered marks.
    expect(screen).toMatch(/• .*\[\d+\]/);
    expect(screen).not.toMatch(/\[e:[0-9a-f]{16}\]|\*\*|│\s*#/);

    fake.reply = (ex) => faithfulBrief(ex, (f) => /fail|error/i.test(f));
    r.sendKeys("R");
    screen = await r.waitFor("AI Resume fell back to the deterministic brief");
    expect(screen).toMatch(/dropped \d+ facts? the brief must keep/);
    expect(screen).toContain("Resume brief");
    expect(screen).not.toContain("# Resume brief");
    r.sendKeys("C-c");
    await r.waitFor("cairn exited 0");
  });

  it("without a model, says how to configure one, as the CLI does", { timeout: 60_000 }, async () => {
    const r = start();
    await openPiSession(r);
    r.sendKeys("A");
    await r.waitFor(/^ask: .*\(session d703a1a9\)/m);
    r.sendText("what failed?");
    r.sendKeys("Enter");
    const screen = await r.waitFor("no model is configured to answer with");
    expect(screen).toContain("hint: pass --provider P --model M");
    r.sendKeys("R");
    await r.waitFor("AI Resume");
    await r.waitFor("no model is configured to answer with");
    r.sendKeys("q", "q", "q");
    await r.waitFor("cairn exited 0");
  });
});
