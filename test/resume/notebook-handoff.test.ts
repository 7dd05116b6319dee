/**
 * What an extension wrote into a pi session is not the person's: notebook pages are the brief's notebook (each
 * page's name and first line, cited), never a request, a turn or a decision; a brief handed over by `/handoff` is
 * named in one line, and the brief of the session it opened says what happened since, not the carried brief again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fold } from "../../src/resume/build.ts";
import { listCheckpoints } from "../../src/resume/checkpoints.ts";
import { createResumeEngine } from "../../src/resume/engine.ts";
import type { Ledger } from "../../src/resume/ledger-types.ts";
import { loadTimeline } from "../../src/resume/timeline.ts";
import { createTokenCounter } from "../../src/resume/tokens.ts";
import { type IndexedSessions, indexSessions, PiSession } from "./session-builder.ts";

const FIRST = "0000aaaa-aaaa-4bbb-8ccc-0000000000b1";
const SECOND = "0000aaaa-aaaa-4bbb-8ccc-0000000000b2";
const PAGE = "Quote tokens first, then escapes.\nThe lexer keeps a state per quote.";
/** A line only the carried brief holds. */
const CARRIED = "CARRIED-ONLY: the first session's reasoning about tokenizer modes";

let ix: IndexedSessions;
const first = new PiSession(FIRST)
  .user("Make the tokenizer keep quoted strings intact; never touch the public API.")
  .notebookWrite("plan", PAGE)
  .notebook({ version: 1, op: "write", name: "scratch", content: "to drop", updatedAt: 1 })
  .notebook({ version: 1, op: "delete", name: "scratch", updatedAt: 2 })
  .bash("npm test -- --run -t 'quoted strings' --reporter=verbose", "FAIL tokenizer > quoted strings", 1)
  .assistant("The quoted-string test fails.");
const second = new PiSession(SECOND)
  .notebook({ version: 1, op: "write", name: "plan", content: PAGE, updatedAt: 3 })
  .handoff(
    `# Handoff brief\n\n# Resume brief — session ${FIRST}\n${CARRIED}\n## Next\n\nfix it`,
    "fix it",
    first.file(),
  )
  .user("fix it")
  .bash("npm test -- --run -t escapes", "ok", 0)
  .user("Use a state machine for escapes, not regexes.")
  .assistant("Switched to a state machine.");

function ledgerOf(id: string): Ledger {
  return fold(loadTimeline(ix.store, id), listCheckpoints(ix.store, id), null).ledger;
}
function briefOf(id: string): string {
  return createResumeEngine({ store: ix.store, counter: createTokenCounter() }).brief({ sessionId: id, budget: 4000 })
    .text;
}

beforeAll(() => {
  ix = indexSessions(first, second);
});
afterAll(() => ix.close());

describe("notebook pages", () => {
  it("are the notebook as it stands: written during a tool call, deleted, each with its first line", () => {
    const ledger = ledgerOf(FIRST);
    expect(ledger.notebook.map((p) => [p.name, p.firstLine])).toEqual([["plan", "Quote tokens first, then escapes."]]);
    expect(ix.store.getEvent(ledger.notebook[0]!.cites[0]!)?.meta).toMatchObject({ notebook: true, page: "plan" });
    expect(briefOf(FIRST)).toMatch(
      /### Notebook \(each page's first line\)\n- plan: Quote tokens first, then escapes\. \[e:/,
    );
  });

  it("are neither requests nor turns nor decisions", () => {
    for (const id of [FIRST, SECOND]) {
      const ledger = ledgerOf(id);
      expect(ledger.decisions.filter((d) => d.text.includes("Quote tokens"))).toEqual([]);
      expect([ledger.goal, ...ledger.latest].some((m) => m?.text.includes("Quote tokens"))).toBe(false);
      expect(briefOf(id)).not.toMatch(/user \(turn \d+\):\n\s+plan/);
      expect(briefOf(id)).not.toMatch(/settled: plan/);
    }
  });
});

describe("a brief of a session that began from a handoff", () => {
  it("names the carried brief in one cited line and does not restate it", () => {
    const ledger = ledgerOf(SECOND);
    expect(ledger.handoff).toMatchObject({ from: FIRST });
    const text = briefOf(SECOND);
    expect(text).toMatch(
      new RegExp(
        `\\*\\*Since the handoff\\*\\* @\\d+: this session began from a brief of session ${FIRST}, not repeated here; .* \\[e:[0-9a-f]+\\]`,
      ),
    );
    expect(text).not.toContain(CARRIED);
    expect(text).not.toContain("tokenizer modes");
    // Not a checkpoint labelled with the brief's title either.
    expect(text).not.toContain("# Handoff brief");
  });

  it("says what happened since: the direction, the later requests, the commands as they were run", () => {
    const ledger = ledgerOf(SECOND);
    expect(ledger.goal?.text).toBe("fix it");
    expect(ledger.latest.at(-1)?.text).toBe("Use a state machine for escapes, not regexes.");
    expect(ledger.commands.flatMap((c) => c.forms.map((f) => f.form))).toEqual(["npm test -- --run -t escapes"]);
    expect(listCheckpoints(ix.store, SECOND).map((c) => c.label)).toEqual(["fix it"]);
  });

  it("a failing command keeps its flags in every line that names it", () => {
    const text = briefOf(FIRST);
    const command = "npm test -- --run -t 'quoted strings' --reporter=verbose";
    expect(text).toContain(`**Commands run**: \`${command}\` ×1 (1 failed)`);
    expect(text).toContain(`✗ \`${command}\``);
  });
});
