/**
 * Tool input is typed data (`meta.input`, see src/topology/tool-call-input.ts); the layers that read the topology
 * must not parse it back out of an event's text. This finds the ways that was done: a `key: value` line pattern in
 * a regular expression, an agent's argument name spelled with its colon in a string or pattern, or an import of a
 * text-parsing helper. Only literals are read (through the TypeScript scanner), so comments may say anything.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

/** Argument names the agents give file, shell and plan tools. */
const ARG_NAMES =
  /(file_path|filePath|old_string|new_string|oldText|newText|old_str|new_str|oldString|newString|file_text|replace_all|todos|view_range)\s?: /;
/** A pattern that reads a `key: value` line: `(\w+): `, `\w+: ` at a line start, `(^|\n)(…): `. */
const KEY_LINE = /\\w[+*]\)?\??: |\(\^\|\\+n\)\(/;
const HELPER_IMPORT = /tool-args|toolArgs|argsFromText/;

export interface Finding {
  file: string;
  line: number;
  text: string;
}

export function toolTextParsing(file: string, source: string): Finding[] {
  const out: Finding[] = [];
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, source);
  const at = (pos: number) => source.slice(0, pos).split("\n").length;
  let previous = ts.SyntaxKind.Unknown;
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    // A slash where an expression starts opens a regular expression, not a division.
    if ((kind === ts.SyntaxKind.SlashToken || kind === ts.SyntaxKind.SlashEqualsToken) && startsExpression(previous))
      kind = scanner.reScanSlashToken();
    const text = scanner.getTokenText();
    const literal =
      kind === ts.SyntaxKind.StringLiteral ||
      kind === ts.SyntaxKind.NoSubstitutionTemplateLiteral ||
      kind === ts.SyntaxKind.TemplateHead ||
      kind === ts.SyntaxKind.RegularExpressionLiteral;
    if (literal) {
      const bad =
        ARG_NAMES.test(text) ||
        KEY_LINE.test(text) ||
        (kind === ts.SyntaxKind.StringLiteral && HELPER_IMPORT.test(text));
      if (bad) out.push({ file, line: at(scanner.getTokenStart()), text });
    }
    if (kind !== ts.SyntaxKind.WhitespaceTrivia && kind !== ts.SyntaxKind.NewLineTrivia) previous = kind;
  }
  return out;
}

function startsExpression(previous: ts.SyntaxKind): boolean {
  return (
    previous === ts.SyntaxKind.Unknown ||
    previous === ts.SyntaxKind.OpenParenToken ||
    previous === ts.SyntaxKind.CommaToken ||
    previous === ts.SyntaxKind.EqualsToken ||
    previous === ts.SyntaxKind.ColonToken ||
    previous === ts.SyntaxKind.OpenBracketToken ||
    previous === ts.SyntaxKind.ExclamationToken ||
    previous === ts.SyntaxKind.AmpersandAmpersandToken ||
    previous === ts.SyntaxKind.BarBarToken ||
    previous === ts.SyntaxKind.QuestionToken ||
    previous === ts.SyntaxKind.ReturnKeyword ||
    previous === ts.SyntaxKind.OpenBraceToken ||
    previous === ts.SyntaxKind.SemicolonToken ||
    previous === ts.SyntaxKind.CloseBraceToken
  );
}

export function toolTextParsingIn(repo: string, dirs: readonly string[]): Finding[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(repo, dir), { withFileTypes: true }).flatMap((d) =>
      d.isDirectory() ? walk(join(dir, d.name)) : /\.ts$/.test(d.name) ? [join(dir, d.name)] : [],
    );
  return dirs.flatMap((d) => walk(d).flatMap((f) => toolTextParsing(f, readFileSync(join(repo, f), "utf8"))));
}
