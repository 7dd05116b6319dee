import { describe, expect, it } from "vitest";
import type { TextTerm } from "../../src/search/query.ts";
import { parseQuery, QueryError } from "../../src/search/query.ts";
import { toEventQuery } from "../../src/search/search.ts";
import { buildMatch as buildTextMatch } from "../../src/search/text-match.ts";
import { ftsMatch } from "../../src/store/sqlite/fts-match.ts";

const now = new Date("2026-11-21T12:00:00Z");
/** The store query with its text match as the SQLite backend writes it. */
const q = (s: string) => {
  const e = toEventQuery(parseQuery(s, now), 20);
  return { ...e, match: e.match === null ? null : ftsMatch(e.match) };
};
const buildMatch = (terms: readonly TextTerm[]) => {
  const m = buildTextMatch(terms);
  return m === null ? null : ftsMatch(m);
};

describe("query language", () => {
  it("prefixes pick the kind of evidence and keep their words", () => {
    expect(q("error: TS2304")).toMatchObject({ types: ["error"], match: '"ts2304"' });
    expect(q("error:TS2304")).toMatchObject({ types: ["error"], match: '"ts2304"' });
    expect(q("decision: sqlite")).toMatchObject({ types: ["decision"], match: '"sqlite"' });
    expect(q("resume:")).toMatchObject({ types: ["resume_point"], match: null });
    expect(q("test:fail")).toMatchObject({ types: ["test_result"], statuses: ["fail"], match: null });
    expect(q("outcome:failed")).toMatchObject({ types: ["outcome"], statuses: ["failed"], match: null });
    expect(q("outcome:open")).toMatchObject({ types: ["outcome"], statuses: ["failed", "abandoned"] });
    expect(q("test:vitest")).toMatchObject({ types: ["test_result"], match: '"vitest"' });
    expect(q("tool:Bash")).toMatchObject({ types: ["tool_call"], tool: "Bash" });
    expect(q('cmd:"npm test"')).toMatchObject({ types: ["command"], command: "npm test" });
    expect(q("file:src/auth.ts")).toMatchObject({ types: ["file_action"], file: "src/auth.ts" });
    // with words, file: filters any event on that file
    expect(q("file:src/auth.ts token")).toMatchObject({ file: "src/auth.ts", match: '"token"' });
    expect(q("file:src/auth.ts token").types).toBeUndefined();
  });

  it("filters combine", () => {
    expect(
      q("provider:claude,codex project:api session:5f2c kind:error since:7d until:2026-11-20 timeout"),
    ).toMatchObject({
      providers: ["claude", "codex"],
      projects: ["api"],
      sessionPrefix: "5f2c",
      types: ["error"],
      since: "2026-11-14T12:00:00.000Z",
      until: "2026-11-20T23:59:59.999Z",
      match: '"timeout"',
    });
    expect(q("kind:test,decision x").types).toEqual(["test_result", "decision"]);
    expect(q("since:today x").since).toBe("2026-11-21T00:00:00.000Z");
  });

  it("identifiers, paths and phrases become matches that agree with the index", () => {
    expect(buildMatch(parseQuery("parseTranscript", now).terms)).toBe(
      '(({text idents facets}: "parsetranscript") OR {idents}: "parse transcript")',
    );
    expect(buildMatch(parseQuery("snake_case_name", now).terms)).toBe(
      '("snake_case_name" OR {idents}: "snake case name")',
    );
    expect(buildMatch(parseQuery("src/index/read-file.ts", now).terms)).toBe(
      '({text idents facets}: "src index read file ts")',
    );
    expect(buildMatch(parseQuery("process.env", now).terms)).toBe('({text idents facets}: "process env")');
    expect(buildMatch(parseQuery('"cannot find name" TS2304', now).terms)).toBe(
      '({text idents facets}: "cannot find name") AND "ts2304"',
    );
    expect(buildMatch(parseQuery("vitest OR jest -flaky", now).terms)).toBe(
      '(("vitest" OR "jest")) NOT ({text idents facets}: "flaky")',
    );
    // a bare word also matches its other forms; a quoted one only as written
    expect(buildMatch(parseQuery("committed", now).terms)).toBe('("committed" OR {stems}: "commit")');
    expect(buildMatch(parseQuery('"committed"', now).terms)).toBe('({text idents facets}: "committed")');
    // FTS5 syntax typed as words is only ever quoted words
    expect(buildMatch(parseQuery("NEAR(a b) foo* ^bar {text}:x AND NOT", now).terms)).toBe(
      '({text idents facets}: "near a") AND "b" AND "foo" AND "bar" AND ({text idents facets}: "text x") AND "and" AND "not"',
    );
  });

  const bad: Array<[string, RegExp, string]> = [
    ['foo "bar', /unclosed quote/, '"bar'],
    // A name no agent in the registry has (an editor, not an agent): new agents must not make this one known.
    ["provider:notepad", /unknown provider 'notepad'/, "provider:notepad"],
    ["kind:bogus", /unknown kind 'bogus'/, "kind:bogus"],
    ["since:yesterdayy x", /not a time/, "since:yesterdayy"],
    ["since:2026-13-45 x", /not a (date|time)/, "since:2026-13-45"],
    [
      "since:2026-11-20 until:2026-11-01 x",
      /since is after until/,
      "since:2026-11-20T00:00:00.000Z until:2026-11-01T23:59:59.999Z",
    ],
    ["OR foo", /OR needs a term/, "OR"],
    ["foo OR", /OR needs a term/, "OR"],
    ["session:a session:b x", /one session/, "session:a session:b"],
    ["-flaky", /exclusions need words/, "-flaky"],
    ["", /query is empty/, ""],
    ["tool:", /needs a tool name/, "tool:"],
    ["project: x", /needs a value/, "project:"],
    ["-provider:pi x", /cannot be negated/, "-provider:pi"],
    ["!!!", /at least one letter or digit/, "!!!"],
  ];
  for (const [input, message, part] of bad) {
    it(`rejects ${JSON.stringify(input)} naming the bad part`, () => {
      let caught: unknown;
      try {
        q(input);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(QueryError);
      expect((caught as QueryError).message).toMatch(message);
      expect((caught as QueryError).part).toBe(part);
    });
  }
});
