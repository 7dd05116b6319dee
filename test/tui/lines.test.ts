/** The Brief and Ask tabs' citation lines: every wrapped line leads to the citation that backs it; the brief drawn. */
import { wrapTextWithAnsi } from "@earendil-works/pi-tui";
import { describe, expect, it } from "vitest";
import { briefLines } from "../../src/tui/lines.ts";
import { markdownLines } from "../../src/tui/markdown-lines.ts";
import { createStyle } from "../../src/tui/style.ts";

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

describe("markdownLines", () => {
  const style = createStyle(false);
  it("draws the brief's markdown as text: no #, ** or backticks, citations as numbered marks leading to them", () => {
    const md = [
      "# Resume brief",
      "pi session. [e:<id>] cites source events (`cairn show <id>`), @N is a position. The ledger is complete.",
      "## Ledger",
      "**Goal** (turn 2): [e:aaaaaaaaaaaaaaaa]",
      "    read the docs in full",
      "### Failures",
      "- ✗ `npm run build` failed [e:bbbbbbbbbbbbbbbb]",
      "- again [e:aaaaaaaaaaaaaaaa]",
    ].join("\n");
    const { lines, cited } = markdownLines(md, 60, style, wrap);
    const text = lines.map((l) => l.text).join("\n");
    expect(text).not.toMatch(/#|\*\*|`|\[e:/);
    expect(cited).toEqual(["aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb"]);
    expect(lines.find((l) => l.text.startsWith("Goal"))).toEqual({ text: "Goal (turn 2): [1]", target: cited[0] });
    expect(lines.find((l) => l.text.startsWith("• ✗"))).toEqual({
      text: "• ✗ npm run build failed [2]",
      target: cited[1],
    });
    expect(text).toContain("  │ read the docs in full");
  });
});
