/**
 * Test scripts run directly: `node test.js`, `python test_api.py`, `ruby test/foo_test.rb`, `./run_tests.sh`. Agents
 * run a project's tests this way as often as through a runner, so an interpreter running a file whose path says it
 * is a test is a test check. The path must say so itself (a test folder or a test file name); a script that merely
 * contains "test" (`latest.js`, `contest.py`) or a server (`node server.js`) is not one.
 */

/** Interpreters that run a script file given as their first operand. */
const SCRIPT_INTERPRETERS = new Set([
  "node",
  "nodejs",
  "python",
  "python3",
  "ruby",
  "bash",
  "sh",
  "zsh",
  "dash",
  "tsx",
  "ts-node",
  "ts-node-esm",
  "perl",
  "php",
]);

/** Options that take the next word as their value, so that word is not the script. */
const VALUE_OPTIONS = new Set([
  "-r",
  "--require",
  "--import",
  "--loader",
  "--experimental-loader",
  "--env-file",
  "--conditions",
  "-C",
  "--tsconfig",
  "--project",
  "-W",
  "-X",
]);

/** Options whose program is inline code or a module, not a file. */
const INLINE_CODE = new Set(["-e", "--eval", "-p", "--print", "-c", "-m"]);

const TEST_DIRS = new Set(["test", "tests", "spec", "specs", "__tests__", "t"]);
/** Folders under a test folder that hold data or helpers, not tests. */
const NOT_TEST_DIRS = new Set(["fixtures", "fixture", "__fixtures__", "mocks", "__mocks__", "testdata", "data"]);

/**
 * The file's own name says it is a test: `test.js`, `tests.py`, `test_api.py`, `test-foo.sh`, `foo_test.rb`,
 * `foo.test.ts`, `foo.spec.ts`, `foo_spec.rb`, `run_tests.sh`.
 */
const TEST_NAME = /^(?:tests?|run[_-]?tests?)(?:[._-]|$)|[._-](?:tests?|spec)(?:\.[^.]+)?$/i;

/** Whether a script's path says it is a test: a test folder (not its fixtures) or a test file name. */
export function isTestPath(path: string): boolean {
  const parts = path.split("/").filter((p) => p !== "" && p !== ".");
  const base = parts.pop();
  if (!base || base === "..") return false;
  if (parts.some((p) => NOT_TEST_DIRS.has(p.toLowerCase()))) return false;
  const stem = base.replace(/\.[^.]+$/, "");
  if (TEST_NAME.test(base) || TEST_NAME.test(stem)) return true;
  // `t` is Perl's test folder; elsewhere it is too short to say anything.
  return parts.some((p) => TEST_DIRS.has(p.toLowerCase()) && (p !== "t" || /\.t$/.test(base)));
}

/** The script an interpreter's arguments run, or null when they run inline code or nothing. */
function scriptOperand(prog: string, args: string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (INLINE_CODE.has(a)) return null;
    if (a === "--") return args[i + 1] ?? null;
    if (a.startsWith("-")) {
      // Ruby's and Perl's `-I dir` takes a folder; Python's `-I` is a switch.
      if (VALUE_OPTIONS.has(a) || (a === "-I" && (prog === "ruby" || prog === "perl"))) i++;
      continue;
    }
    return a;
  }
  return null;
}

/**
 * Whether `prog args…` runs a test script: an interpreter (or `deno run`, `bun [run]`) whose script's path is a
 * test's, or a script executed by its path (`./run_tests.sh`, `tests/smoke.sh`).
 */
export function runsTestScript(rawProgram: string, prog: string, args: string[]): boolean {
  if (rawProgram.includes("/") && !SCRIPT_INTERPRETERS.has(prog)) return isTestPath(rawProgram);
  let rest: string[] | null = null;
  if (SCRIPT_INTERPRETERS.has(prog)) rest = args;
  else if (prog === "deno" && args[0] === "run") rest = args.slice(1);
  else if (prog === "bun") rest = args[0] === "run" ? args.slice(1) : args;
  if (rest === null) return false;
  const script = scriptOperand(prog, rest);
  // `bun run test` names a package script, not a file: only a path with an extension or a folder is a file.
  if (script === null || (prog === "bun" && !/[./]/.test(script))) return false;
  return isTestPath(script);
}
