/**
 * Shell commands: which tool calls are shell-like, the canonical form that groups repeated runs of "the same"
 * command (research/resume-method §4.3), and the check family (test, typecheck, lint, build) of a command.
 */
import { agentToolNames } from "../readers/agents.ts";
import { readCommand, takesValue } from "./options.ts";
import { effectiveWords, type ListItem, parseShell, type SimpleCommand, unwrapShell } from "./shell.ts";
import { runsTestScript } from "./test-script.ts";

export const CHECK_FAMILIES = ["test", "typecheck", "lint", "build", "check"] as const;
export type CheckFamily = (typeof CHECK_FAMILIES)[number];

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Tool names that run a shell command: the common ones, and each agent's own (its manifest's `tools.shell`). */
const SHELL_TOOLS = new Set([
  "bash",
  "shell",
  "terminal",
  "run_command",
  "run_terminal_cmd",
  ...agentToolNames("shell"),
]);

/**
 * The command line a tool call runs, or null when it is not a shell call. Codex's argv form
 * (`["bash", "-lc", "…"]`) is reduced to the script it runs.
 */
export function shellCommandOf(toolName: string, input: unknown): string | null {
  const name = toolName.toLowerCase();
  if (!SHELL_TOOLS.has(name) && !name.endsWith("__bash") && !name.endsWith("__shell")) return null;
  if (!isRecord(input)) return typeof input === "string" ? input : null;
  const raw = input["command"] ?? input["cmd"];
  if (typeof raw === "string") return raw;
  const list = input["commands"];
  if (Array.isArray(list) && list.length > 0 && list.every((c) => typeof c === "string")) return list.join("\n");
  if (Array.isArray(raw) && raw.every((w) => typeof w === "string")) {
    const words = raw as string[];
    return unwrapShell(words) ?? words.map(quoteWord).join(" ");
  }
  return null;
}

function quoteWord(w: string): string {
  return /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

/**
 * Pipeline stages that only shape output for reading; they do not change what the command is. Programs that compute
 * from their input (`jq`, `awk`, `xargs`) are kept.
 */
const PLUMBING = new Set([
  "head",
  "tail",
  "grep",
  "egrep",
  "fgrep",
  "rg",
  "wc",
  "sort",
  "uniq",
  "less",
  "more",
  "cat",
  "tee",
  "cut",
  "tr",
  "column",
  "sed",
  "nl",
  "fold",
  "ansi2txt",
  "strip-ansi",
]);

/** Commands that only print or set the exit status: after `&&`, `||` or `;` they are output plumbing too. */
const TRAILERS = new Set(["echo", "printf", "true", ":", "exit"]);

/** Programs whose here-document is the program they run (`python3 - <<'EOF' … EOF`). */
const INTERPRETERS = new Set([
  "python",
  "python3",
  "node",
  "bash",
  "sh",
  "zsh",
  "ruby",
  "perl",
  "php",
  "deno",
  "bun",
  "psql",
  "sqlite3",
  "mysql",
  "osascript",
]);

/** Segments that set up the shell rather than do work. */
const SETUP = new Set([
  "cd",
  "pushd",
  "popd",
  "export",
  "source",
  ".",
  "set",
  "unset",
  "alias",
  "ulimit",
  "true",
  ":",
  "clear",
]);

export interface CommandInfo {
  /** The command as grouped across runs: `cd`, env assignments, wrappers, redirections and output plumbing removed. */
  canonical: string;
  /** The main program (`npm`, `pytest`, `git`, …). */
  program: string | null;
  family: CheckFamily | null;
  /** The parsed command line, for the file actions (so it is parsed once). */
  items: ListItem[];
  /**
   * The command line's exit status is not its check's: the check's output is piped into another stage (without
   * `pipefail`), or a later `; …`, `|| echo …` or `&` decides the status.
   */
  exitMasked: boolean;
  /**
   * The mask is only `| tail` after a package-manager script (`npm run build 2>&1 | tail -5`): npm, pnpm, yarn and
   * bun end a failed run with a footer (`npm error command failed`), so a tail without one shows a pass.
   */
  scriptTail: boolean;
}

export function analyzeCommand(command: string, depth = 0): CommandInfo {
  const items = parseShell(command);
  let canonical = "";
  let family: CheckFamily | null = null;
  let program: string | null = null;
  let pipefail = false;
  /** Where the last check ran: its list item, whether it ended its pipeline, whether a nested shell masked it. */
  let check: Check | null = null;
  const addFamily = (f: CheckFamily | null) => {
    if (f && (family === null || FAMILY_RANK[f] > FAMILY_RANK[family])) family = f;
  };
  for (let k = 0; k < items.length; k++) {
    const item = items[k]!;
    let stages = "";
    for (let idx = 0; idx < item.pipeline.length; idx++) {
      const cmd = item.pipeline[idx]!;
      const lastStage = idx === item.pipeline.length - 1;
      const inner = depth < 3 ? unwrapShell(cmd.words) : null;
      if (inner !== null) {
        // `bash -lc "…"`: the script inside is the command.
        const sub = analyzeCommand(inner, depth + 1);
        if (sub.canonical) stages = stages === "" ? sub.canonical : `${stages} | ${sub.canonical}`;
        program ??= sub.program;
        if (sub.family) {
          addFamily(sub.family);
          check = { item: k, stage: idx, lastStage, masked: sub.exitMasked, script: sub.scriptTail };
        }
        continue;
      }
      const words = effectiveWords(cmd.words);
      if (words.length === 0) continue;
      const prog = basenameOf(words[0]!);
      if (prog === "set" && words.some((w) => w.includes("pipefail"))) pipefail = true;
      if (idx === 0 && SETUP.has(prog)) continue;
      if (idx > 0 && PLUMBING.has(prog) && !words.includes("-i")) continue;
      // `… || echo "none"`, `… && echo done`: printing after the work is plumbing, unless it writes a file.
      if (idx === 0 && k > 0 && item.pipeline.length === 1 && TRAILERS.has(prog) && !writesFile(cmd)) continue;
      const stage = renderStage(cmd, words, prog);
      stages = stages === "" ? stage : `${stages} | ${stage}`;
      program ??= prog;
      const f = checkFamilyOf(words);
      if (f) {
        addFamily(f);
        check = { item: k, stage: idx, lastStage, masked: false, script: PKG_MANAGERS.has(prog) };
      }
    }
    if (stages === "") continue;
    // Items keep the operator that joins them: `a || b` must not read as `a && b`.
    const op = canonical === "" ? null : items[k - 1]!.next;
    canonical =
      op === null
        ? stages
        : `${canonical}${op === "&&" || op === "||" ? ` ${op} ` : op === "&" ? " & " : "; "}${stages}`;
  }
  canonical = canonical.replace(/\s+/g, " ").trim();
  return {
    canonical: canonical || command.trim().replace(/\s+/g, " "),
    program,
    family,
    items,
    exitMasked: check !== null && isMasked(items, check, pipefail),
    scriptTail: check?.script === true && !pipefail && onlyTails(items, check),
  };
}

interface Check {
  item: number;
  stage: number;
  lastStage: boolean;
  /** A nested shell already masked it. */
  masked: boolean;
  /** A package-manager script; inside a nested shell, one whose mask is only `| tail`. */
  script: boolean;
}

function isMasked(items: ListItem[], check: Check, pipefail: boolean): boolean {
  if (check.masked || (!check.lastStage && !pipefail)) return true;
  return laterItemDecides(items, check.item);
}

function onlyTails(items: ListItem[], check: Check): boolean {
  if (laterItemDecides(items, check.item)) return false;
  const later = items[check.item]!.pipeline.slice(check.stage + 1);
  if (later.length === 0) return check.masked; // a nested shell's own tail
  return !check.masked && later.every((c) => basenameOf(effectiveWords(c.words)[0] ?? "") === "tail");
}

function laterItemDecides(items: ListItem[], from: number): boolean {
  for (let j = from; j + 1 < items.length; j++) {
    const op = items[j]!.next;
    // After `&&` a failure stops the list; `|| exit 1` keeps it a failure. Anything else runs on and decides.
    if (op === "&&") continue;
    if (op === "||" && effectiveWords(items[j + 1]!.pipeline[0]?.words ?? [])[0] === "exit") continue;
    return true;
  }
  return false;
}

function writesFile(cmd: SimpleCommand): boolean {
  return cmd.redirects.some((r) => />/.test(r.op) && !r.op.endsWith("&") && !r.target.startsWith("/dev/"));
}

const SAFE_WORD = /^[\w@%+=:,./~^-]+$/;
const SAFE_LINE = /^[\w@%+=:,./~^ -]*$/;

/** Words as a shell would read them back: quoted where they hold spaces or shell syntax. */
export function shellQuote(w: string): string {
  if (w !== "" && SAFE_WORD.test(w)) return w;
  if (!w.includes("$") && !w.includes("`")) return `'${w.replace(/'/g, `'\\''`)}'`;
  return `"${w.replace(/["\\]/g, "\\$&")}"`;
}

/**
 * One pipeline stage of the canonical form. Redirections are plumbing and dropped, except for a here-document:
 * then the redirection is what `cat > f <<EOF` does, and an interpreter's here-document is the program it runs.
 */
function renderStage(cmd: SimpleCommand, words: string[], prog: string): string {
  const joined = words.join(" ");
  // Most stages need no quoting at all: one test of the whole line instead of one per word (the line's spaces must
  // then all be the joins, none inside a word).
  let spaces = 0;
  for (let i = joined.indexOf(" "); i !== -1; i = joined.indexOf(" ", i + 1)) spaces++;
  let out =
    spaces === words.length - 1 && SAFE_LINE.test(joined) && !words.includes("")
      ? joined
      : words.map(shellQuote).join(" ");
  if (cmd.heredoc === undefined) return out;
  const target = cmd.redirects.find((r) => />/.test(r.op) && !r.op.endsWith("&"));
  if (target) out += ` ${target.op} ${shellQuote(target.target)}`;
  out += " <<EOF";
  if (INTERPRETERS.has(prog) && cmd.heredoc.trim() !== "") {
    const body = cmd.heredoc.replace(/\s+/g, " ").trim();
    out += ` ${body.length > 200 ? `${body.slice(0, 199)}…` : body}`;
  }
  return out;
}

function basenameOf(program: string): string {
  return program.replace(/^.*\//, "");
}

/**
 * Programs whose non-zero exit answers the question they ask ("no match", "they differ", "false", "not there")
 * instead of reporting trouble, with the exit statuses that do (`grep` exits 2 on a file it cannot read: that is
 * trouble). `any`: every status (a listing of a path that is not there). A read of a file (`cat`, `head`, `sed -n`)
 * is not a question: when it fails, the file could not be read.
 */
const QUERIES: Record<string, readonly number[] | "any"> = {
  grep: [1],
  egrep: [1],
  fgrep: [1],
  zgrep: [1],
  rg: [1],
  ag: [1],
  ack: [1],
  "git grep": [1],
  diff: [1],
  cmp: [1],
  "git diff": [1],
  test: [1],
  "[": [1],
  "[[": [1],
  which: [1],
  type: [1],
  command: [1],
  hash: [1],
  pgrep: [1],
  pidof: [1],
  false: "any",
  // Waiting: a sleep cut short says nothing about the work.
  sleep: "any",
  ls: "any",
  find: "any",
  fd: "any",
  stat: "any",
  file: "any",
  realpath: "any",
  tree: "any",
};

/**
 * Whether a command that exited with `exitCode` (null: failed, status unknown) only got a "no" to what it asked:
 * every command of the line is a question (`QUERIES`) and the status is one that answers it. Such a miss while
 * looking around is not a failure of the work; a read of a missing file is.
 */
export function answersNo(command: string, exitCode: number | null): boolean {
  const items = parseShell(command);
  if (items.length === 0) return false;
  for (const item of items) {
    // Without `pipefail` the last stage's status is the line's; filters before it do not fail it.
    const words = effectiveWords(item.pipeline[item.pipeline.length - 1]?.words ?? []);
    const prog = basenameOf(words[0] ?? "");
    const codes = QUERIES[`${prog} ${words[1] ?? ""}`] ?? QUERIES[prog];
    if (codes === undefined) return false;
    if (codes !== "any" && exitCode !== null && !codes.includes(exitCode)) return false;
  }
  return true;
}

/** When a command chains several checks, the most telling one names it. */
const FAMILY_RANK: Record<CheckFamily, number> = { build: 1, check: 2, lint: 3, typecheck: 4, test: 5 };

const PKG_MANAGERS = new Set(["npm", "pnpm", "yarn", "bun", "deno"]);
const TEST_RUNNERS = new Set([
  "vitest",
  "jest",
  "mocha",
  "ava",
  "tap",
  "pytest",
  "py.test",
  "rspec",
  "phpunit",
  "ctest",
  "tox",
  "nox",
  "karma",
  "playwright",
  "cypress",
  "bats",
  "nextest",
  // `python -m unittest`
  "unittest",
  "nose2",
]);
const TYPECHECKERS = new Set(["tsc", "tsgo", "vue-tsc", "mypy", "pyright", "basedpyright", "flow", "svelte-check"]);
const LINTERS = new Set([
  "eslint",
  "biome",
  "ruff",
  "flake8",
  "pylint",
  "golangci-lint",
  "shellcheck",
  "stylelint",
  "oxlint",
  "rubocop",
  "prettier",
  "black",
  "isort",
  "clippy-driver",
  "markdownlint",
  "hadolint",
  "knip",
  "depcheck",
  "cspell",
  "dprint",
]);

/** The check family a single command belongs to, from its words. */
export function checkFamilyOf(words: string[]): CheckFamily | null {
  let raw = words[0] ?? "";
  let prog = basenameOf(raw);
  let args = words.slice(1);
  // The words after the program's own leading options (`npm --prefix web run build` → `run build`).
  let lead = readCommand(words).rest;
  if (
    prog === "npx" ||
    prog === "pnpx" ||
    prog === "bunx" ||
    (prog === "pnpm" && lead[0] === "exec") ||
    (prog === "yarn" && lead[0] === "dlx")
  ) {
    const runner = prog === "npx" || prog === "pnpx" || prog === "bunx";
    const rest = runner ? lead : readCommand(["npx", ...lead.slice(1)]).rest;
    if (rest.length === 0) return null;
    raw = rest[0]!;
    prog = basenameOf(raw);
    args = rest.slice(1);
    lead = readCommand(rest).rest;
  }
  if (runsTestScript(raw, prog, args)) return "test";
  if (/^python(3(\.\d+)?)?$/.test(prog) || prog === "uv" || prog === "poetry" || prog === "pipenv") {
    const read = readCommand([raw, ...args]);
    const module = read.options.find((o) => o.flag === "-m")?.value;
    if (module) return checkFamilyOf([module, ...read.rest]);
    if ((prog === "uv" || prog === "poetry" || prog === "pipenv") && lead[0] === "run")
      return checkFamilyOf(lead.slice(1));
    // Django's test command; `manage.py runserver` and the rest are not checks.
    if (read.options.some((o) => o.flag === "-c")) return null;
    const script = lead.findIndex((a) => !a.startsWith("-"));
    if (script !== -1 && basenameOf(lead[script]!) === "manage.py" && lead[script + 1] === "test") return "test";
    return null;
  }
  if (prog === "node" && (args.includes("--test") || args.some((a) => a.startsWith("--test=")))) return "test";
  if (TEST_RUNNERS.has(prog)) return "test";
  if (TYPECHECKERS.has(prog)) return args.includes("-b") || args.includes("--build") ? "build" : "typecheck";
  if (LINTERS.has(prog)) {
    if (prog === "prettier" && !args.includes("--check") && !args.includes("-c")) return null;
    if (
      prog === "biome" &&
      (args[0] === "format" || args.includes("--write")) &&
      !args.includes("check") &&
      !args.includes("ci")
    )
      return null;
    if (prog === "dprint" && args[0] !== "check") return null;
    return "lint";
  }
  if (prog === "go")
    return lead[0] === "test" ? "test" : lead[0] === "vet" ? "lint" : lead[0] === "build" ? "build" : null;
  if (prog === "cargo") {
    const sub = lead[0];
    if (sub === "test" || sub === "nextest") return "test";
    if (sub === "check") return "typecheck";
    if (sub === "clippy") return "lint";
    if (sub === "build") return "build";
    return null;
  }
  if (prog === "make" || prog === "just" || prog === "task") {
    const target = lead.find((a, i) => !a.startsWith("-") && !a.includes("=") && !takesValue(prog, lead[i - 1] ?? ""));
    if (!target) return prog === "make" ? "build" : null;
    return scriptFamily(target);
  }
  if (prog === "mvn" || prog === "gradle" || prog === "./gradlew" || prog === "gradlew") {
    if (args.some((a) => a === "test" || a === "verify")) return "test";
    if (args.some((a) => a === "build" || a === "package" || a === "compile" || a === "assemble")) return "build";
    return null;
  }
  if (prog === "dotnet") return lead[0] === "test" ? "test" : lead[0] === "build" ? "build" : null;
  if (prog === "swift") return lead[0] === "test" ? "test" : lead[0] === "build" ? "build" : null;
  if (
    prog === "vite" ||
    prog === "webpack" ||
    prog === "rollup" ||
    prog === "esbuild" ||
    prog === "tsup" ||
    prog === "turbo"
  ) {
    if (prog === "turbo" && args[0] === "run" && args[1]) return scriptFamily(args[1]);
    return args[0] === "build" || prog !== "vite" ? "build" : null;
  }
  if (PKG_MANAGERS.has(prog)) {
    const sub = lead[0];
    if (sub === "test" || sub === "t") return "test";
    if (sub === "run" || sub === "run-script") {
      const script = readCommand(lead).rest[0];
      return script ? scriptFamily(script) : null;
    }
    if (prog === "deno" && (sub === "check" || sub === "lint")) return sub === "check" ? "typecheck" : "lint";
    if (
      (prog === "yarn" || prog === "pnpm" || prog === "bun") &&
      sub &&
      !["install", "add", "remove", "i", "x", "dlx", "exec", "create", "init"].includes(sub)
    ) {
      return scriptFamily(sub);
    }
  }
  return null;
}

/** The family of a package script or make target from its name (`test:unit`, `typecheck`, `lint:fix`, …). */
export function scriptFamily(name: string): CheckFamily | null {
  const n = name.toLowerCase();
  if (/^(test|tests|spec|e2e|unit|integration|coverage|ci)\b|^test[:_-]|[:_-]test$/.test(n)) return "test";
  if (/^(typecheck|type-check|types|tsc|check-types|check:types|typecheck:.*)$/.test(n)) return "typecheck";
  if (/^(lint|eslint|biome|format:check|fmt:check|stylelint)(\b|[:_-])/.test(n)) return "lint";
  if (/^(build|compile|bundle|dist)(\b|[:_-])/.test(n)) return "build";
  if (/^(check|verify|validate|precommit|pre-commit)(\b|[:_-]|$)/.test(n)) return "check";
  return null;
}
