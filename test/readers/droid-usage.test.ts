/**
 * Droid's only token counts: `<session>.settings.json`'s `tokenUsage`, a running total per session, read beside the
 * session as one usage record named by the session and timed at its latest line.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { countedCalls } from "../../src/usage/calls.ts";
import { type TempIndex, tempIndex, withStore } from "../helpers/temp-index.ts";
import { REPO } from "../helpers/transcripts.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-droid-usage-"));
const indexes: TempIndex[] = [];
afterAll(() => {
  for (const i of indexes) i.remove();
  rmSync(dir, { recursive: true, force: true });
});

let copies = 0;
function home(): { home: string; sessions: string[] } {
  const h = join(dir, `droid-${copies++}`);
  cpSync(join(REPO, "test", "fixtures", "clients", "droid", "0.225.1", "home"), h, { recursive: true });
  const sessions = readdirSync(h, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".jsonl"))
    .map((f) => join(h, f))
    .sort();
  return { home: h, sessions };
}

const usage = (h: string) => {
  const index = tempIndex("cairn-droid-usage-", [h]);
  indexes.push(index);
  return withStore(index.db, (s) => s.usageCalls());
};

const lastTime = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as { timestamp?: string })
    .map((o) => o.timestamp)
    .filter((t) => t !== undefined)
    .at(-1);

function settings(session: string, tokenUsage: object | undefined): void {
  const doc = { model: "claude-sonnet-4-5-20250929", ...(tokenUsage ? { tokenUsage } : {}) };
  writeFileSync(session.replace(/\.jsonl$/, ".settings.json"), JSON.stringify(doc));
}

describe("Droid's session totals", () => {
  it("are one record per session with a settings file, named by the session, at its latest line's time", () => {
    const { home: h, sessions } = home();
    const [a, b] = sessions as [string, string];
    settings(a, {
      inputTokens: 1200,
      outputTokens: 300,
      cacheCreationTokens: 40,
      cacheReadTokens: 5000,
      thinkingTokens: 70,
      factoryCredits: 2,
    });
    settings(b, undefined);
    const rows = usage(h);
    const id = JSON.parse(readFileSync(a, "utf8").split("\n")[0]!).id as string;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      provider: "droid",
      session_id: id,
      call: `droid:${id}`,
      model: "claude-sonnet-4-5-20250929",
      input: 1200,
      output: 300,
      cache_read: 5000,
      cache_write: 40,
      reasoning: 70,
      cost: null,
      timestamp: lastTime(a),
    });
  });

  it("count once however often they are read: the largest copy of a session's total is the one counted", () => {
    const { home: h, sessions } = home();
    const [a] = sessions as [string];
    settings(a, { inputTokens: 10, outputTokens: 1, cacheCreationTokens: 0, cacheReadTokens: 0, thinkingTokens: 0 });
    const small = usage(h);
    settings(a, { inputTokens: 25, outputTokens: 3, cacheCreationTokens: 0, cacheReadTokens: 0, thinkingTokens: 0 });
    const large = usage(h);
    const both = countedCalls([...small, ...large]);
    expect(both.map((r) => [r.input, r.output])).toEqual([[25, 3]]);
  });

  it("are no record when the settings file is broken or names no tokenUsage", () => {
    const { home: h, sessions } = home();
    writeFileSync(sessions[0]!.replace(/\.jsonl$/, ".settings.json"), "{not json");
    settings(sessions[1]!, undefined);
    expect(usage(h)).toEqual([]);
  });
});
