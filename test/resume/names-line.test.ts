/**
 * How the names in play are written: a name extended by a longer one shown beside it is left out (the longer one
 * says it too), and a file is labelled by its base name unless another file among the names shares it.
 */
import { describe, expect, it } from "vitest";
import type { Ledger } from "../../src/resume/ledger-types.ts";
import { selectNames } from "../../src/resume/select.ts";
import type { RankedSymbol } from "../../src/resume/working-set.ts";

const sym = (name: string, file: string | null, score: number): RankedSymbol => ({ name, file, score, cite: "e1" });

function names(symbols: RankedSymbol[], shown = "", recent: string[] = []): string[] {
  const { items } = selectNames(
    {
      units: [],
      ledger: {} as Ledger,
      available: 1000,
      scale: 1,
      profile: "neutral",
      cwd: "/repo",
      contents: new Map(),
      quoted: new Set(),
      symbols,
      shown,
    },
    1000,
    recent.map((text) => ({ field: "tool", text, cites: [] })),
  );
  return items.map((i) => i.text);
}

describe("the names in play", () => {
  it("leave out a name a longer one shown beside it extends, and label files by base name when unambiguous", () => {
    expect(
      names([
        sym("this.bgColors", "/repo/src/theme/theme.ts", 5),
        sym("hexToRgb", "/repo/src/theme/theme.ts", 4),
        sym("this.bgColors.get", "/repo/src/theme/theme.ts", 3),
        sym("render", "/repo/src/a/index.ts", 2),
        sym("mount", "/repo/src/b/index.ts", 1),
      ]),
    ).toEqual(["- theme.ts: hexToRgb, this.bgColors.get", "- src/a/index.ts: render", "- src/b/index.ts: mount"]);
  });

  it("leave out the parts a longer dotted name spells and names the ledger or the recent tail already shows", () => {
    expect(
      names(
        [
          sym("usage.cacheRead", "/repo/src/footer.ts", 6),
          sym("lastMessage.usage.cacheRead", "/repo/src/footer.ts", 5),
          sym("cacheRead", "/repo/src/footer.ts", 4),
          sym("mdCode", "/repo/src/theme.json", 3),
          sym("mdLink", "/repo/src/theme.json", 2),
          sym("statsLine", "/repo/src/footer.ts", 1),
        ],
        "- M src/theme.json: mdCodeBlock",
        ["@12 edit `src/footer.ts`: statsLine.push(x)"],
      ),
    ).toEqual(["- footer.ts: lastMessage.usage.cacheRead", "- theme.json: mdCode, mdLink"]);
  });
});
