/** The Brief and Ask tabs' citation lines: every wrapped line leads to the citation that backs it. */
import { wrapTextWithAnsi } from "@earendil-works/pi-tui";
import { describe, expect, it } from "vitest";
import { briefLines } from "../../src/tui/lines.ts";

const wrap = (text: string, width: number) => (text === "" ? [""] : wrapTextWithAnsi(text, width));

describe("briefLines", () => {
  it("follows a citation split across lines from both halves", () => {
    const text = "Build fails on TS2305 [e:8357eb88fc20589d]";
    const lines = briefLines(text, 12, wrap);
    const joined = lines.map((l) => l.text).join("\n");
    expect(joined).not.toMatch(/\[e:8357eb88fc20589d\]/); // the pane really split it
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines) expect(l.target).toBe("8357eb88fc20589d");
  });

  it("leads a sentence's first line to the citation it ends with, each sentence to its own", () => {
    const text =
      "The theme export was missing from the package index so the build failed [e:aaaaaaaaaaaaaaaa]. " +
      "Adding it fixed the build [e:bbbbbbbbbbbbbbbb].";
    const lines = briefLines(text, 30, wrap);
    expect(lines[0]!.target).toBe("aaaaaaaaaaaaaaaa");
    expect(lines.at(-1)!.target).toBe("bbbbbbbbbbbbbbbb");
    const lastA = lines.findLastIndex((l) => l.text.includes("aaaa"));
    expect(lines.slice(lastA + 1).every((l) => l.target === "bbbbbbbbbbbbbbbb")).toBe(true);
  });

  it("leaves lines without a citation in their paragraph leading nowhere", () => {
    const lines = briefLines("## Ledger\nno citation here\n[e:cccccccccccccccc] cited", 40, wrap);
    expect(lines.map((l) => l.target)).toEqual([undefined, undefined, "cccccccccccccccc"]);
  });
});
