/**
 * The secret scan's first tests (does a text hold any rule's marker, any key-position word) are written for speed,
 * each marker sought from a rare character of it; they must answer as the plain lists of markers do. The lists
 * are pinned here, so a marker added to one fails this test until the fast test takes it in too.
 */
import { describe, expect, it } from "vitest";
import { holdsPositionMarker, POSITION_MARKERS } from "../../src/secrets/positions.ts";
import { holdsRuleMarker, RULE_MARKERS } from "../../src/secrets/rules.ts";

function plainTest(re: RegExp, text: string): boolean {
  re.lastIndex = 0;
  return re.test(text);
}

/** Strings made of the markers' pieces and their neighbours, many of them near misses. */
function pieced(pieces: string[], count: number): string[] {
  let seed = 11;
  const random = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
    return Math.floor((seed / 0x80000000) * n);
  };
  return Array.from({ length: count }, () => {
    let s = "";
    for (let n = 1 + random(8); n > 0; n--) s += pieces[random(pieces.length)];
    return s;
  });
}

describe("secret markers", () => {
  it("are the lists the fast tests were written for", () => {
    expect(RULE_MARKERS.source).toBe(
      String.raw`(?<![A-Za-z])sk-|[sr]k_(?:live|test)|gh[pousr]_|github_pat|xox[bpaor]|xapp|hooks\.slack|:\/\/[^\s/@:]{1,256}:[^\s/@]{1,256}@|PRIVATE KEY|A3T|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA|(?:SECRET|[Ss]ecret)_?(?:ACCESS|[Aa]ccess)_?(?:KEY|[Kk]ey)|SG\.|npm_|_authToken|glpat-|gl(?:c|sa)_|hv[sbr]\.|dckr_pat|shp(?:pa|ca|at|ss)_|ntn_|cf(?:k|ut|at)_|ops_|gsk_|hf_|lin_api|vc[pkira]_|dapi|fig[dur]_|tskey`,
    );
    expect(POSITION_MARKERS.source).toBe("key|secret|token|passw|pwd|credential|bearer|eyJ|PRIVATE KEY|AIza");
  });

  it("are found by the fast rule-marker test exactly where the list finds one", () => {
    const pieces = [
      ..."sk- sk rk _ - . : / @ live test gh p o u s r github pat xox b a xapp hooks slack :// u:p@ PRIVATE".split(" "),
      ..."KEY A3T AKIA A KIA SECRET Secret secret ACCESS Access access Key key SG npm authToken glpat gl c".split(" "),
      ..."sa hv dckr shp pa ca at ss ntn cf k ut ops gsk hf lin api vc i fig d dapi da ts tskey x Z 1".split(" "),
      " ",
    ];
    const texts = pieced(pieces, 200_000);
    expect(texts.filter((t) => plainTest(RULE_MARKERS, t)).length).toBeGreaterThan(10_000);
    expect(texts.filter((t) => holdsRuleMarker(t) !== plainTest(RULE_MARKERS, t))).toEqual([]);
  });

  it("are found by the fast key-position test exactly where the list finds one", () => {
    const pieces = [
      ..."key KEY Key token TOKEN secret SECRET passw PASSW pwd PWD credential bearer BEARER eyJ EYJ eyj".split(" "),
      ..."PRIVATE_KEY AIza aiza k e y t o n s c r p a w d j z i A I Z _".split(" "),
      " ",
    ];
    const texts = pieced(pieces, 100_000);
    expect(texts.filter((t) => plainTest(POSITION_MARKERS, t)).length).toBeGreaterThan(10_000);
    expect(texts.filter((t) => holdsPositionMarker(t) !== plainTest(POSITION_MARKERS, t))).toEqual([]);
  });
});
