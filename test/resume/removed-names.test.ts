/**
 * Names in play after an edit took a name out of the code: the old name is gone from the file, so it ranks below
 * the one that replaced it, unless something mentions it again later (a search for leftovers, a user's question).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadTimeline } from "../../src/resume/timeline.ts";
import { rankSymbols } from "../../src/resume/working-set.ts";
import { type IndexedSessions, indexSessions, PiSession } from "./session-builder.ts";

const RENAMED = "0000aaaa-aaaa-4bbb-8ccc-0000000000f1";
const ASKED_AGAIN = "0000aaaa-aaaa-4bbb-8ccc-0000000000f2";
const SOURCE = "export const theme = {\n  userMsgBg: '#343541',\n  toolText: '#ffffff',\n};\n";

function session(id: string): PiSession {
  return new PiSession(id)
    .user("rename the user message background key in src/theme.ts")
    .read("src/theme.ts", SOURCE)
    .edit("src/theme.ts", "  userMsgBg: '#343541',", "  userMessageBg: '#343541',");
}

let ix: IndexedSessions;
beforeAll(() => {
  ix = indexSessions(session(RENAMED), session(ASKED_AGAIN).user("does anything still read `userMsgBg`?"));
});
afterAll(() => ix.close());

const order = (id: string) => rankSymbols(loadTimeline(ix.store, id)).map((s) => s.name);

describe("names an edit removed", () => {
  it("rank below the name that replaced them", () => {
    const names = order(RENAMED);
    expect(names.indexOf("userMessageBg")).toBeGreaterThanOrEqual(0);
    expect(names.indexOf("userMsgBg")).toBeGreaterThan(names.indexOf("userMessageBg"));
  });

  it("rank as any other once something mentions them again", () => {
    const names = order(ASKED_AGAIN);
    expect(names.indexOf("userMsgBg")).toBeLessThan(names.indexOf("userMessageBg"));
  });
});
