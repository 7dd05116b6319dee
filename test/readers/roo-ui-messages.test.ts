/**
 * Roo Code's `ui_messages.json` arrives as its bytes (`contextAsBytes`): the facts read from them must be those
 * of the text they decode to, whatever characters the list holds and however it starts.
 */
import { describe, expect, it } from "vitest";
import { uiFacts } from "../../src/readers/roo/ui-messages.ts";

const bytes = (text: string) => Buffer.from(text, "utf8").toString("latin1");

const list = JSON.stringify([
  { ts: 1700000000000, type: "say", say: "text", text: "réglages ✓ 😀 — «ok»" },
  {
    ts: 1700000001000,
    type: "say",
    say: "condense_context",
    contextCondense: { summary: "Zusammenfassung: Größe ✓ 😀" },
  },
  { ts: 1700000002000, type: "say", say: "command_output", text: 'ünïcode "say":"error" quoted, not a key' },
  { ts: 1700000003000, type: "ask", ask: "api_req_failed", text: "Fehler: überlastet ⚠" },
  { ts: 1700000004000, type: "say", say: "error", text: "kaputt ✗" },
]);

const expected = {
  startedAt: "2023-11-14T22:13:20.000Z",
  events: [
    { ts: "2023-11-14T22:13:21.000Z", kind: "compaction", text: "Zusammenfassung: Größe ✓ 😀" },
    { ts: "2023-11-14T22:13:23.000Z", kind: "error", text: "api req failed: Fehler: überlastet ⚠" },
    { ts: "2023-11-14T22:13:24.000Z", kind: "warning", text: "kaputt ✗" },
  ],
};

describe("Roo Code's ui_messages.json read from its bytes", () => {
  it("finds the condenses and failures, their text decoded as UTF-8", () => {
    expect(uiFacts(bytes(list))).toEqual(expected);
  });

  it("reads a list that starts with a byte order mark or other whitespace beyond ASCII as its text", () => {
    expect(uiFacts(bytes(`\uFEFF${list}`))).toEqual(expected);
    expect(uiFacts(bytes(`\u00A0 \n${list}`))).toEqual(expected);
  });

  it("is nothing for a file that is not a list", () => {
    expect(uiFacts(bytes('{"ts":1}'))).toBeNull();
    expect(uiFacts(bytes("é[]"))).toBeNull();
    expect(uiFacts(undefined)).toBeNull();
  });
});
