/**
 * Evidence in what a user pasted: the command the output came from where it shows (a shell prompt, a CI step
 * "Run npm run check", an npm script header), the check's outcome when that command is a check, and the first
 * error line. The normalizer turns these into `test_result` and `error` events derived from the user message.
 */
import { type CheckOutcome, checkOutcome } from "./checks.ts";
import { analyzeCommand, type CheckFamily } from "./command.ts";
import { type ErrorSignature, errorSignature, topErrorLines } from "./error-signature.ts";
import { isCodeLine, type PastedSpan } from "./pasted.ts";
import { parseTestOutput } from "./test-output.ts";

export interface PastedEvidence {
  span: PastedSpan;
  /** The command as written, when the paste shows it. */
  command: string | null;
  canonical: string | null;
  family: CheckFamily | null;
  check: CheckOutcome | null;
  error: (ErrorSignature & { more: string[] }) | null;
}

/** `➜  repo git:(main) ✗ npx tsx cli.ts -r`, `$ npm test`, `❯ pnpm build`, `PS C:\w> npm test`. */
const PROMPT = /^\s*(?:(?:➜|❯|\$|%|#)\s+(?:\S+\s+git:\([^)]*\)\s+(?:✗\s+)?)?|PS [A-Z]:\\[^>]*>\s*)(\S.*)$/;
/** A CI step ("Run npm run check") or an npm script's header ("> pkg@1.0.0 check" then "> the command"). */
const RUN_STEP = /^\s*Run (\S.*)$/;
const NPM_HEADER = /^> (?:\S+@\S+ )?([\w:.-]+)$/;
const NPM_BODY = /^> (\S.*)$/;

export function pastedEvidence(text: string, span: PastedSpan): PastedEvidence {
  const output = text.slice(span.start, span.end);
  const lines = output.split("\n");
  const { command, script } = commandIn(lines);
  // The prompt line is the command, not its output (zsh's ✗ is a dirty repository); a trace's code frame quotes
  // the source that threw, not the error.
  const scanned = lines.filter((l) => !PROMPT.test(l) && !isCodeLine(l)).join("\n");
  const info = command ? analyzeCommand(command) : null;
  // `npm run audit:unused` is a check when the script it ran is one ("> knip").
  const family =
    info?.family ?? (script ? analyzeCommand(script).family : null) ?? (parseTestOutput(output) ? "test" : null);
  const sig = span.kind === "code" || span.kind === "json" ? null : errorSignature(scanned);
  const check = family
    ? checkOutcome({
        family,
        canonical: info?.canonical ?? "(pasted output)",
        output,
        // Only the output can tell: nobody reported an exit status with a paste.
        failed: false,
        known: false,
        masked: true,
        errorLine: () => sig?.line ?? null,
      })
    : null;
  return {
    span,
    command,
    canonical: info?.canonical ?? null,
    family,
    check,
    error: sig ? { ...sig, more: topErrorLines(scanned).filter((l) => l !== sig.line) } : null,
  };
}

/** The first command a paste shows it ran, and the package script's own command when the paste shows that too. */
function commandIn(lines: readonly string[]): { command: string | null; script: string | null } {
  for (let i = 0; i < lines.length && i < 400; i++) {
    const l = lines[i]!.trimEnd();
    const run = RUN_STEP.exec(l) ?? PROMPT.exec(l);
    if (run && /^[\w./~-]/.test(run[1]!)) return { command: run[1]!.trim(), script: scriptAfter(lines, i + 1) };
    if (NPM_HEADER.test(l)) {
      const script = scriptAfter(lines, i);
      // "> check" then "> npm run db:generate && biome check": the script ran; name it as the user would.
      return script ? { command: `npm run ${NPM_HEADER.exec(l)![1]!}`, script } : { command: null, script: null };
    }
  }
  return { command: null, script: null };
}

/** "> audit:unused" then "> knip" at or just after line `from`: the script's command. */
function scriptAfter(lines: readonly string[], from: number): string | null {
  for (let i = from; i < lines.length && i < from + 4; i++) {
    if (!NPM_HEADER.test(lines[i]!.trimEnd())) continue;
    return NPM_BODY.exec(lines[i + 1]?.trimEnd() ?? "")?.[1]?.trim() ?? null;
  }
  return null;
}
