/**
 * What a small brief spends its room on, on a real pi session cut where the user's last requests point at a file
 * by a loose name ("truncatedtext.ts is fucked up. investigate", then "continue"): the names of that file rank
 * high among the names in play, and messages of a few words that say nothing ("continue", "Request was aborted.") are not quoted
 * as earlier context.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createResumeEngine } from "../../src/resume/engine.ts";
import { createTokenCounter } from "../../src/resume/tokens.ts";
import { openStore } from "../../src/store/sqlite/store.ts";
import type { Store } from "../../src/store/types.ts";
import { type TempIndex, tempIndex } from "../helpers/temp-index.ts";
import { realFixturesDir } from "../helpers/transcripts.ts";

let index: TempIndex;
let store: Store;
beforeAll(() => {
  index = tempIndex("cairn-pointed-", [join(realFixturesDir(), "pi", "pi-mono__large-session.jsonl")]);
  store = openStore(index.db);
});
afterAll(() => {
  store.close();
  index.remove();
});

function section(text: string, title: string): string {
  const at = text.indexOf(`## ${title}`);
  const next = text.indexOf("\n## ", at + 3);
  return at < 0 ? "" : text.slice(at, next < 0 ? undefined : next);
}

describe("a small brief after the user pointed at a file", () => {
  it("names that file's workings and quotes no empty words", () => {
    const session = store.listSessions({})[0]!;
    const events = store.sessionEvents(session.session_id);
    const asked = events.find((e) => e.event_type === "user_message" && /truncatedtext\.ts/.test(e.text));
    expect(asked).toBeDefined();
    // the first "continue" after it, then the agent's last look at the file before the next message: the cut
    const go = events.find(
      (e) => e.ordinal > asked!.ordinal && e.event_type === "user_message" && e.text.trim() === "continue",
    );
    const next = events.find((e) => e.ordinal > go!.ordinal && e.event_type === "user_message" && e.role === "user");
    const cut = events
      .filter((e) => e.ordinal > go!.ordinal && e.ordinal < (next?.ordinal ?? Infinity))
      .findLast((e) => e.file_path?.endsWith("/truncated-text.ts"));
    expect(cut).toBeDefined();
    const engine = createResumeEngine({ store, counter: createTokenCounter() });
    const brief = engine.brief({ sessionId: session.session_id, at: cut!.event_id, ratio: 0.03, ladder: false });
    const names = section(brief.text, "Names in play")
      .split("\n")
      .filter((l) => l.startsWith("- "));
    // labelled by its base name when no other file among the names shares it (the ledger has the full path)
    const pointed = names.find((l) => /^- (?:packages\/tui\/src\/components\/)?truncated-text\.ts: /.test(l));
    // its own workings, which the next turns edit, not only the class name the request brought up
    expect(pointed).toMatch(/\bavailableWidth\b/);
    const earlier = section(brief.text, "Earlier context");
    expect(earlier).not.toMatch(/\n\s+continue \[e:/);
    expect(earlier).not.toMatch(/Request was aborted\./);
  });
});
