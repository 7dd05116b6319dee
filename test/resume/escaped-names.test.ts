/**
 * Names in play from output that quotes JSON or a string literal: an escaped line break (`\nAuthorization` in
 * `"headers:\nAuthorization: …"`) glues its `n` to the next word, which is no name of the code.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadTimeline } from "../../src/resume/timeline.ts";
import { rankSymbols } from "../../src/resume/working-set.ts";
import { type IndexedSessions, indexSessions, PiSession } from "./session-builder.ts";

const ID = "0000aaaa-aaaa-4bbb-8ccc-0000000000e5";
let ix: IndexedSessions;
beforeAll(() => {
  ix = indexSessions(
    new PiSession(ID)
      .user("the api client drops the auth header, look at src/client.ts")
      .read("src/client.ts", "export function sendRequest(apiKey: string) {\n  return fetchWithAuth(apiKey);\n}\n")
      .bash(
        "curl -s localhost:8080/debug",
        '{"request":"POST /v1/messages\\nAuthorization: Bearer x\\nContent_Type: json\\tuser_id: 7","lastSyncedAt":1}',
      ),
  );
});
afterAll(() => ix.close());

describe("names read from escaped text", () => {
  it("keep the words after an escaped line break or tab whole, and glue no n or t to them", () => {
    const names = rankSymbols(loadTimeline(ix.store, ID)).map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(["sendRequest", "fetchWithAuth", "lastSyncedAt", "Content_Type"]));
    expect(names).toContain("user_id");
    for (const glued of ["nAuthorization", "nContent_Type", "tuser_id"]) expect(names).not.toContain(glued);
  });
});
