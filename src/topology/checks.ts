/**
 * The outcome of a check run (test, typecheck, lint, build): pass, fail or unknown, from the exit status when it
 * speaks for the check and from the output otherwise, and the one-line text of its `test_result` event.
 */
import type { CheckFamily } from "./command.ts";
import { errorSignature } from "./error-signature.ts";
import { outputShowsFailure, parseTestOutput, type TestReport } from "./test-output.ts";

export type CheckStatus = "pass" | "fail" | "unknown";

export interface CheckRun {
  family: CheckFamily;
  canonical: string;
  /** Output with ANSI codes already stripped. */
  output: string;
  /** The tool or exit code says the command failed. */
  failed: boolean;
  /** The format reported an exit code or a failure flag at all. */
  known: boolean;
  /**
   * The exit status is not the check's: its output went through a filter (`| tail`, `| grep`, `| wc`) or a later
   * command (`; echo`, `|| true`) decided the status. Only the output can tell then.
   */
  masked: boolean;
  /** The mask is only `| tail` after a package-manager script, whose failure footer a tail keeps. */
  scriptTail?: boolean;
  /** The output's first error line, when the caller has it (or reads it once for several uses). */
  errorLine?: () => string | null;
}

export interface CheckOutcome {
  status: CheckStatus;
  report: TestReport | null;
  /** `check \`npm run check\` fail, 3 failed, 10 passed: a > b`. */
  text: string;
}

/** Runners that report diagnostics, not tests: their counts are errors. */
const DIAGNOSTIC_RUNNERS = new Set(["tsc", "eslint", "biome"]);

export function checkOutcome(run: CheckRun): CheckOutcome {
  const report = parseTestOutput(run.output);
  const reportFails = report !== null && report.failed > 0;
  let status: CheckStatus;
  if (run.masked || !run.known) {
    // A filter's exit status says nothing about the check, and a format that keeps none (Open Interpreter's) says
    // nothing either; a recognisable summary or failure line does, and so does the end of a package script's output
    // without npm's failure footer.
    status =
      reportFails || outputShowsFailure(run.output)
        ? "fail"
        : report !== null || run.scriptTail === true
          ? "pass"
          : "unknown";
  } else {
    status = run.failed || reportFails ? "fail" : report !== null || run.known ? "pass" : "unknown";
  }
  return { status, report, text: `${run.family} \`${run.canonical}\` ${describe(status, report, run)}` };
}

function describe(status: CheckStatus, report: TestReport | null, run: CheckRun): string {
  if (report === null || (status === "fail" && report.failed === 0)) {
    // No counts, or counts that do not show this failure ("0 errors" from a run that failed before checking
    // anything): the first error line says more.
    if (status !== "fail") return status;
    const line = run.errorLine ? run.errorLine() : (errorSignature(run.output)?.line ?? null);
    return line ? `fail: ${line.length > 160 ? `${line.slice(0, 159)}…` : line}` : "fail";
  }
  const counts = DIAGNOSTIC_RUNNERS.has(report.runner)
    ? `${status}, ${report.failed} error${report.failed === 1 ? "" : "s"}`
    : `${status}, ${report.failed} failed, ${report.passed} passed${report.skipped ? `, ${report.skipped} skipped` : ""}`;
  // Names are of failing tests or files with errors; a passing run's diagnostics are warnings, not failures.
  const names = report.failed > 0 && report.failing.length > 0 ? `: ${report.failing.slice(0, 5).join(", ")}` : "";
  return counts + names;
}
