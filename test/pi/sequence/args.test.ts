// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${…} here is prompt-template syntax under test, not JavaScript.
import { describe, expect, it } from "vitest";
import { splitArgs, substituteArgs } from "../../../src/pi/sequence/args.ts";

describe("splitArgs", () => {
  it.each([
    ["", []],
    ["a b  c", ["a", "b", "c"]],
    [`"API compatibility" 'two words' x`, ["API compatibility", "two words", "x"]],
    [`pre"fix me"post`, ["prefix mepost"]],
    ["tab\tand\nnewline", ["tab", "and", "newline"]],
  ])("%j", (input, expected) => {
    expect(splitArgs(input)).toEqual(expected);
  });
});

describe("substituteArgs", () => {
  const args = ["parser", "lexer", "tests"];
  it.each([
    ["Plan the implementation for $@", "Plan the implementation for parser lexer tests"],
    ["$ARGUMENTS!", "parser lexer tests!"],
    ["first=$1 third=$3 missing=[$4]", "first=parser third=tests missing=[]"],
    ["${2:-x} ${5:-fallback}", "lexer fallback"],
    ["from two: ${@:2}", "from two: lexer tests"],
    ["one from two: ${@:2:1}", "one from two: lexer"],
    ["zero means one: ${@:0}", "zero means one: parser lexer tests"],
    ["no placeholders", "no placeholders"],
  ])("%j", (template, expected) => {
    expect(substituteArgs(template, args)).toBe(expected);
  });

  it("uses defaults when there are no arguments", () => {
    expect(substituteArgs("Focus on ${@:-correctness}. [$@]", [])).toBe("Focus on correctness. []");
  });

  it("does not substitute inside replacements", () => {
    expect(substituteArgs("$1 $2", ["$2", "x"])).toBe("$2 x");
  });
});
