/**
 * People read an error as it was written: the normalised signature ("FAIL add(N, N) = N, expected N", "error TSN",
 * "N.N npm error") groups repeats and stays out of what is shown, in the brief's failures and in the error entities
 * that threads, `cairn show` and the event page name. Real transcripts of several agents.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareVersions } from "../../scripts/clients/install.ts";
import { inspectPaths } from "../../src/indexer/inspect.ts";
import { createResumeEngine } from "../../src/resume/engine.ts";
import { createTokenCounter } from "../../src/resume/tokens.ts";
import { openStore } from "../../src/store/sqlite/store.ts";
import type { Store } from "../../src/store/types.ts";
import { type TempIndex, tempIndex } from "../helpers/temp-index.ts";
import { REPO, realFixture } from "../helpers/transcripts.ts";

const newest = (agent: string) => {
  const dir = join(REPO, "test/fixtures/clients", agent);
  return join(dir, readdirSync(dir).sort(compareVersions).at(-1)!, "home");
};
const homes = ["pi", "claude", "gemini", "qwen", "opencode"].map(newest);

describe("error entities", () => {
  const { entities, events } = inspectPaths([realFixture("claude"), realFixture("pi"), ...homes], REPO);
  const errors = entities.filter((e) => e.kind === "error_signature");

  it("show the line as the agent's tool wrote it, keyed by the signature", () => {
    expect(errors.length).toBeGreaterThan(10);
    const lines = new Set(
      events.filter((e) => e.event_type === "error").map((e) => e.text.split("\n")[0]!.replace(/\s+/g, " ").trim()),
    );
    for (const e of errors) expect(lines.has(e.display.replace(/…$/, "")) || e.display.endsWith("…"), e.key).toBe(true);
    const fail = errors.find((e) => e.key === "FAIL add(N, N) = N, expected N");
    expect(fail?.display).toBe("FAIL add(2, 2) = 0, expected 4");
  });
});

describe("a brief's failures", () => {
  let index: TempIndex;
  let store: Store;
  beforeAll(() => {
    index = tempIndex("cairn-errtext-", [newest("qwen"), newest("gemini")]);
    store = openStore(index.db);
  });
  afterAll(() => {
    store.close();
    index.remove();
  });

  it("quote the error line, not its signature", () => {
    const engine = createResumeEngine({ store, counter: createTokenCounter() });
    let seen = 0;
    for (const s of store.listSessions({}).filter((s) => s.kind === "main")) {
      const text = engine.brief({ sessionId: s.session_id, ladder: false }).text;
      const failures = text.split("\n").filter((l) => /^- [✗✓] `/.test(l) || /^[✗✓] `/.test(l) || /failed ×/.test(l));
      seen += failures.length;
      expect(text).not.toMatch(/add\(N, N\) = N|occurrences found for old_string in math\.js/);
    }
    expect(seen).toBeGreaterThan(0);
  });
});
