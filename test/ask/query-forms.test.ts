import { describe, expect, it } from "vitest";
import { asksForEndState, identifierForms } from "../../src/ask/query-forms.ts";

describe("identifierForms", () => {
  it("takes the paths, file names, identifiers and error codes a question names, as written", () => {
    expect(identifierForms("use rgb hex values in dark.json and light.json instead of 256-color indices")).toEqual([
      "light.json",
      "dark.json",
    ]);
    expect(identifierForms("why did TS2304 show up in src/auth.ts after parseConfig changed")).toEqual([
      "parseConfig",
      "src/auth.ts",
      "TS2304",
    ]);
  });

  it("finds none in a question of plain words", () => {
    expect(identifierForms("what did we decide about the footer color")).toEqual([]);
  });
});

describe("asksForEndState", () => {
  it("tells questions about how things ended from the rest", () => {
    expect(asksForEndState("what was still failing in ci at the end")).toBe(true);
    expect(asksForEndState("did the knip check pass in the end")).toBe(true);
    expect(asksForEndState("did running hoge.py work")).toBe(true);
    expect(asksForEndState("what did we decide about the footer color")).toBe(false);
    expect(asksForEndState("target shim binary not found")).toBe(false);
  });
});
