/**
 * Pass/fail counts and failing test names from the output of test runners, type checkers and linters. Each parser
 * recognises its runner's summary lines; none guesses from prose.
 */
import { stripAnsi } from "./text.ts";

export const RUNNERS = [
  "vitest",
  "jest",
  "node:test",
  "tap",
  "mocha",
  "pytest",
  "go",
  "cargo",
  "tsc",
  "eslint",
  "biome",
] as const;
export type Runner = (typeof RUNNERS)[number];

export interface TestReport {
  runner: Runner;
  passed: number;
  failed: number;
  skipped: number;
  /** Failing test names (or, for type checkers and linters, failing files), at most 50. */
  failing: string[];
  /** The first error lines of the report, at most 5. */
  errors: string[];
}

const MAX_NAMES = 50;
const MAX_ERRORS = 5;

type Parser = (text: string, lines: string[]) => TestReport | null;

function int(v: string | undefined): number {
  return v === undefined ? 0 : Number.parseInt(v, 10) || 0;
}

function uniq(names: string[]): string[] {
  return [...new Set(names.map((n) => n.trim()).filter((n) => n !== ""))].slice(0, MAX_NAMES);
}

const vitest: Parser = (text, lines) => {
  const m = /^\s*Tests\s+((?:\d+ \w+(?: \| )?)+)\s*\((\d+)\)/m.exec(text);
  if (!m) return null;
  const counts = countWords(m[1]!);
  const failing: string[] = [];
  for (const l of lines) {
    const fail = /^\s*FAIL\s+(.+? > .+?)\s*$/.exec(l);
    if (fail) failing.push(fail[1]!.replace(/\s+\d+ms$/, ""));
    else {
      const x = /^\s*[×✗]\s+(.+?)(?:\s+\d+ms)?$/.exec(l);
      if (x) failing.push(x[1]!);
    }
  }
  return {
    runner: "vitest",
    passed: counts.passed,
    failed: counts.failed,
    skipped: counts.skipped + counts.todo,
    failing: mostSpecific(uniq(failing)),
    errors: errorLines(lines),
  };
};

/** Drops names that are the tail of a longer name in the list ("adds > works" beside "src/b.test.ts > adds > works"). */
function mostSpecific(names: string[]): string[] {
  return names.filter((n) => !names.some((o) => o !== n && o.endsWith(` > ${n}`)));
}

function countWords(s: string): { passed: number; failed: number; skipped: number; todo: number } {
  const get = (w: string) => int(new RegExp(`(\\d+) ${w}`).exec(s)?.[1]);
  return { passed: get("passed"), failed: get("failed"), skipped: get("skipped"), todo: get("todo") };
}

const jest: Parser = (text, lines) => {
  const m = /^Tests:\s+(.+?),?\s*(\d+) total/m.exec(text);
  if (!m) return null;
  const s = m[1]!;
  const failing: string[] = [];
  for (const l of lines) {
    const bullet = /^\s*● (.+?)\s*$/.exec(l);
    if (bullet && !/^Console$/.test(bullet[1]!) && !bullet[1]!.startsWith("Test suite failed"))
      failing.push(bullet[1]!);
    const x = /^\s*✕\s+(.+?)(?:\s+\(\d+ ?m?s\))?$/.exec(l);
    if (x) failing.push(x[1]!);
  }
  return {
    runner: "jest",
    passed: int(/(\d+) passed/.exec(s)?.[1]),
    failed: int(/(\d+) failed/.exec(s)?.[1]),
    skipped: int(/(\d+) skipped/.exec(s)?.[1]) + int(/(\d+) todo/.exec(s)?.[1]),
    failing: uniq(failing.filter((n) => n.includes("›") || !failing.some((o) => o !== n && o.endsWith(n)))),
    errors: errorLines(lines),
  };
};

const nodeTest: Parser = (text, lines) => {
  const spec = /^ℹ tests (\d+)$/m.exec(text);
  const tap = /^# tests (\d+)$/m.exec(text);
  if (!spec && !tap) return null;
  const p = spec ? "ℹ" : "#";
  const get = (w: string) => int(new RegExp(`^${p === "ℹ" ? "ℹ" : "#"} ${w} (\\d+)$`, "m").exec(text)?.[1]);
  const failing: string[] = [];
  let inFailures = false;
  for (const l of lines) {
    if (/^✖ failing tests:/.test(l)) inFailures = true;
    const notOk = /^\s*not ok \d+ - (.+?)(?:\s+#.*)?$/.exec(l);
    if (notOk) failing.push(notOk[1]!);
    const cross = /^\s*✖ (.+?)(?: \([\d.]+m?s\))?$/.exec(l);
    if (cross && !inFailures && !/^failing tests:/.test(cross[1]!)) failing.push(cross[1]!);
  }
  return {
    runner: spec ? "node:test" : "tap",
    passed: get("pass"),
    failed: get("fail"),
    skipped: get("skipped") + get("todo") + get("cancelled"),
    failing: uniq(failing),
    errors: errorLines(lines),
  };
};

const mocha: Parser = (text, lines) => {
  const passing = /^\s*(\d+) passing\b/m.exec(text);
  if (!passing) return null;
  const failing: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^\s+\d+\) (.+?)(:)?$/.exec(lines[i]!);
    if (m) {
      const next = lines[i + 1]?.trim();
      failing.push(m[2] ? m[1]! : next?.endsWith(":") ? `${m[1]} ${next.slice(0, -1)}` : m[1]!);
    }
  }
  return {
    runner: "mocha",
    passed: int(passing[1]),
    failed: int(/^\s*(\d+) failing\b/m.exec(text)?.[1]),
    skipped: int(/^\s*(\d+) pending\b/m.exec(text)?.[1]),
    failing: uniq(failing),
    errors: errorLines(lines),
  };
};

const pytest: Parser = (text, lines) => {
  const m =
    /^=*\s*((?:\d+ (?:failed|passed|skipped|errors?|xfailed|xpassed|warnings?|deselected|rerun)(?:, )?)+) in [\d.]+s/m.exec(
      text,
    );
  if (!m) return null;
  const s = m[1]!;
  const failing = lines
    .map((l) => /^(?:FAILED|ERROR) (\S+?)(?: - .*)?$/.exec(l)?.[1])
    .filter((x): x is string => x !== undefined);
  return {
    runner: "pytest",
    passed: int(/(\d+) passed/.exec(s)?.[1]) + int(/(\d+) xpassed/.exec(s)?.[1]),
    failed: int(/(\d+) failed/.exec(s)?.[1]) + int(/(\d+) errors?/.exec(s)?.[1]),
    skipped:
      int(/(\d+) skipped/.exec(s)?.[1]) + int(/(\d+) xfailed/.exec(s)?.[1]) + int(/(\d+) deselected/.exec(s)?.[1]),
    failing: uniq(failing),
    errors: errorLines(lines),
  };
};

const goTest: Parser = (text, lines) => {
  // A cheap look over the whole text before a regex per line.
  if (!/^\s*--- (PASS|FAIL|SKIP): |^(ok|FAIL)\s+\S+\s/m.test(text)) return null;
  let pass = 0;
  let fail = 0;
  let skip = 0;
  let pkgOk = 0;
  let pkgFail = 0;
  const failing: string[] = [];
  for (const l of lines) {
    const t = /^\s*--- (PASS|FAIL|SKIP): (\S+)/.exec(l);
    if (t) {
      if (t[1] === "PASS") pass++;
      else if (t[1] === "SKIP") skip++;
      else {
        fail++;
        failing.push(t[2]!);
      }
      continue;
    }
    if (/^ok\s+\S+\s+(\(cached\)|[\d.]+s)/.test(l)) pkgOk++;
    else if (/^FAIL\s+\S+\s+([\d.]+s|\[build failed\]|\[setup failed\])/.test(l)) pkgFail++;
  }
  if (pass + fail + skip + pkgOk + pkgFail === 0) return null;
  // Without -v only packages are listed; count those then.
  const byTest = pass + fail + skip > 0;
  return {
    runner: "go",
    passed: byTest ? pass : pkgOk,
    failed: byTest ? Math.max(fail, 0) : pkgFail,
    skipped: skip,
    failing: uniq(failing),
    errors: errorLines(lines),
  };
};

const cargo: Parser = (text, lines) => {
  if (!text.includes("test result: ")) return null;
  const results = [...text.matchAll(/^test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored/gm)];
  if (results.length === 0) return null;
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const r of results) {
    passed += int(r[1]);
    failed += int(r[2]);
    skipped += int(r[3]);
  }
  const failing = lines
    .map((l) => /^test (\S+) \.\.\. FAILED$/.exec(l)?.[1])
    .filter((x): x is string => x !== undefined);
  return { runner: "cargo", passed, failed, skipped, failing: uniq(failing), errors: errorLines(lines) };
};

const TSC_LINE = /^(.+?)(?:\((\d+),(\d+)\)|:(\d+):(\d+)) ?[-:] ?error (TS\d+): (.+)$/;

const tsc: Parser = (text, lines) => {
  if (!text.includes("error TS") && !text.includes("Found ")) return null;
  const errs = lines.map((l) => TSC_LINE.exec(l)).filter((m): m is RegExpExecArray => m !== null);
  // "Found N errors." alone is also biome's summary; tsc is recognised by its TSnnnn lines or its "in N files".
  const found =
    /^Found (\d+) errors? in /m.exec(text) ?? (errs.length > 0 ? /^Found (\d+) errors?\b/m.exec(text) : null);
  if (errs.length === 0 && !found) return null;
  const files = errs.map((m) => m[1]!.trim());
  return {
    runner: "tsc",
    passed: 0,
    failed: found ? int(found[1]) : errs.length,
    skipped: 0,
    failing: uniq(files),
    errors: errs.slice(0, MAX_ERRORS).map((m) => m[0].trim()),
  };
};

const eslint: Parser = (text, lines) => {
  if (!text.includes("✖ ")) return null;
  const m = /^✖ (\d+) problems? \((\d+) errors?, (\d+) warnings?\)/m.exec(text);
  if (!m) return null;
  const files: string[] = [];
  const errors: string[] = [];
  let file: string | null = null;
  for (const l of lines) {
    if (/^(\/|[A-Za-z]:\\|\.{0,2}\/?[\w@.-]+\/)\S+\.\w+$/.test(l.trim()) && !l.startsWith(" ")) file = l.trim();
    const e = /^\s+(\d+):(\d+)\s+error\s+(.+)$/.exec(l);
    if (e && file) {
      files.push(file);
      if (errors.length < MAX_ERRORS) errors.push(`${file}:${e[1]}:${e[2]} ${e[3]!.trim()}`);
    }
  }
  return { runner: "eslint", passed: 0, failed: int(m[2]), skipped: 0, failing: uniq(files), errors };
};

const biome: Parser = (text, lines) => {
  const found = /^Found (\d+) errors?\.?$/m.exec(text);
  const checked = /^Checked \d+ files? in /m.test(text);
  const diagnostics = /^\S+:\d+:\d+ (lint|format|assist|parse)\S* /m.test(text);
  if (!checked && !diagnostics) return null;
  if (!found && !checked) return null;
  const files: string[] = [];
  const errors: string[] = [];
  for (const l of lines) {
    const d = /^(\S+?):(\d+):(\d+) ((?:lint|format|assist|parse)\S*)/.exec(l);
    if (d) {
      files.push(d[1]!);
      if (errors.length < MAX_ERRORS) errors.push(l.replace(/\s*━+\s*$/, "").trim());
    } else if (/^(\S+) format ━/.test(l)) files.push(l.split(" ")[0]!);
  }
  const failed = found ? int(found[1]) : 0;
  // Without errors the diagnostics listed are warnings ("Found 1 warning."): no file failed.
  if (failed === 0) return { runner: "biome", passed: 0, failed, skipped: 0, failing: [], errors: [] };
  return { runner: "biome", passed: 0, failed, skipped: 0, failing: uniq(files), errors };
};

/** In order of specificity: a vitest run also prints lines a generic parser could misread. */
const PARSERS: Parser[] = [vitest, jest, nodeTest, mocha, pytest, cargo, goTest, biome, tsc, eslint];

/** Parses check output; returns null when no known runner's summary is present. */
export function parseTestOutput(output: string): TestReport | null {
  if (output.length === 0) return null;
  // Summaries sit at the end of long outputs; failing names may be anywhere, so scan a bounded window of both.
  const text = stripAnsi(
    output.length > 400_000 ? `${output.slice(0, 200_000)}\n${output.slice(-200_000)}` : output,
  ).replace(/\r\n?/g, "\n");
  const lines = text.split("\n");
  for (const parse of PARSERS) {
    const report = parse(text, lines);
    if (report) return report;
  }
  return null;
}

const ERROR_LINE =
  /(\berror\b|\bError\b|\bFAIL|\bfailed\b|Exception|Traceback|panic:|Cannot find|is not assignable|not found|✗|×|AssertionError|expected .+ to )/;

function errorLines(lines: string[]): string[] {
  const out: string[] = [];
  for (const l of lines) {
    const t = l.trim();
    if (t.length === 0 || t.length > 300) continue;
    if (ERROR_LINE.test(t) && !/\b0 (errors|failed)\b|no errors/i.test(t)) {
      out.push(t);
      if (out.length >= MAX_ERRORS) break;
    }
  }
  return out;
}

/**
 * Lines by which package managers, build tools and shells report a failed run, for output whose exit status was
 * lost (piped through a filter): `npm error command failed`, `ELIFECYCLE`, `error TS2304`, `make: ***`.
 */
const FAILURE_LINE =
  /^(?:npm (?:ERR!|error) (?:code [A-Z]|command failed|Lifecycle script)|.*\bELIFECYCLE\b|error Command failed with exit code [1-9]|.*\berror TS\d{4,5}\b|(?:Command|Process) exited with code [1-9]|make(?:\[\d+\])?: \*\*\*|Error: Process completed with exit code [1-9]|\s*FAIL\s+\S|error: could not compile|Build failed\b|Tests? failed\b)/m;

export function outputShowsFailure(output: string): boolean {
  const text = output.length > 400_000 ? `${output.slice(0, 200_000)}\n${output.slice(-200_000)}` : output;
  return FAILURE_LINE.test(stripAnsi(text));
}
