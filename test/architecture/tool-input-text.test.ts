/** resume/, search/ and threads/ read a tool call's typed input; none of them parses it back out of text. */
import { describe, expect, it } from "vitest";
import { REPO } from "../helpers/transcripts.ts";
import { toolTextParsing, toolTextParsingIn } from "./tool-input-text.ts";

describe("tool input is read as fields", () => {
  it("no file under src/resume, src/search or src/threads parses tool-input text", () => {
    const found = toolTextParsingIn(REPO, ["src/resume", "src/search", "src/threads"]);
    expect(found.map((f) => `${f.file}:${f.line} ${f.text}`)).toEqual([]);
  });

  it("the check itself catches a key-line pattern, an argument name with its colon and a parsing helper", () => {
    const source = [
      'import { toolArgs } from "./tool-args.ts";',
      "const keys = [...text.matchAll(/^(\\w+): /gm)];",
      "const all = /replace_all: true/.test(call.text);",
      'const start = text.indexOf("\\nold_string: ");',
      "const re = new RegExp(`(^|\\\\n)($" + "{names}): `);",
      "// a comment may mention `oldText: …` freely",
      "const ratio = a / b / c;",
    ].join("\n");
    const lines = toolTextParsing("x.ts", source).map((f) => f.line);
    expect(lines).toEqual([1, 2, 3, 4, 5]);
  });
});
