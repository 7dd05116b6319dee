/**
 * Read-only guard for shell commands (pure). It recognises the common ways a command changes files: output
 * redirection, file-management tools, in-place editors, version-control and package-manager subcommands that
 * write, downloads to disk, archive extraction, and `sh -c`/`xargs`/`find -exec` wrappers around any of these.
 * Interpreters (`python -c`, `node -e`) and other indirection are not analysed; the OS sandbox covers those.
 */
import { tokenizeShell } from "./shell-tokens.ts";

export interface BashClassification {
  writes: boolean;
  /** Why the command was judged to write, for the block reason shown to the model. */
  reason?: string;
}

const SAFE_REDIRECT_TARGETS: ReadonlySet<string> = new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"]);

const FILE_WRITERS: ReadonlySet<string> = new Set([
  "rm",
  "rmdir",
  "mv",
  "cp",
  "mkdir",
  "touch",
  "ln",
  "chmod",
  "chown",
  "chgrp",
  "truncate",
  "dd",
  "shred",
  "install",
  "mkfifo",
  "mknod",
  "unlink",
  "patch",
  "rsync",
  "scp",
  "vi",
  "vim",
  "nvim",
  "nano",
  "emacs",
]);

/** Wrappers whose own options are skipped to reach the command they run. */
const WRAPPERS: ReadonlySet<string> = new Set([
  "sudo",
  "doas",
  "env",
  "nice",
  "nohup",
  "time",
  "exec",
  "stdbuf",
  "ionice",
]);
/** Wrapper options that take a separate value (`sudo -u root`, `nice -n 5`). */
const WRAPPER_OPTIONS_WITH_VALUE: ReadonlySet<string> = new Set([
  "-u",
  "-g",
  "-h",
  "-p",
  "-C",
  "-D",
  "-r",
  "-t",
  "-U",
  "-n",
  "-c",
]);
const SHELLS: ReadonlySet<string> = new Set(["sh", "bash", "zsh", "dash", "ksh", "fish"]);

const PACKAGE_MANAGERS: ReadonlySet<string> = new Set([
  "npm",
  "pnpm",
  "yarn",
  "bun",
  "pip",
  "pip3",
  "uv",
  "poetry",
  "cargo",
  "go",
  "gem",
  "bundle",
  "composer",
  "brew",
  "apt",
  "apt-get",
  "dnf",
  "yum",
  "apk",
  "pacman",
]);
const PACKAGE_WRITE_SUBCOMMANDS: ReadonlySet<string> = new Set([
  "install",
  "i",
  "add",
  "remove",
  "rm",
  "uninstall",
  "un",
  "ci",
  "update",
  "up",
  "upgrade",
  "link",
  "unlink",
  "publish",
  "init",
  "create",
  "new",
  "prune",
  "dedupe",
  "rebuild",
  "get",
  "mod",
  "fmt",
  "fix",
  "version",
]);

const GIT_READ_SUBCOMMANDS: ReadonlySet<string> = new Set([
  "status",
  "log",
  "diff",
  "show",
  "blame",
  "grep",
  "ls-files",
  "ls-tree",
  "ls-remote",
  "rev-parse",
  "rev-list",
  "describe",
  "shortlog",
  "cat-file",
  "whatchanged",
  "name-rev",
  "merge-base",
  "for-each-ref",
  "show-ref",
  "var",
  "help",
  "version",
  "check-ignore",
]);
/** Subcommands that read when their first argument is one of these (or when they have no arguments). */
const GIT_READ_FIRST_ARGS: Readonly<Record<string, ReadonlySet<string>>> = {
  remote: new Set(["-v", "--verbose", "show", "get-url"]),
  stash: new Set(["list", "show"]),
  reflog: new Set(["show"]),
  worktree: new Set(["list"]),
  submodule: new Set(["status"]),
};
/** Subcommands that read when any of these options is present (or when they have no arguments). */
const GIT_READ_OPTIONS: Readonly<Record<string, ReadonlySet<string>>> = {
  branch: new Set([
    "-a",
    "-r",
    "-l",
    "-v",
    "-vv",
    "--list",
    "--all",
    "--remotes",
    "--show-current",
    "--contains",
    "--merged",
    "--no-merged",
  ]),
  tag: new Set(["-l", "--list", "-n", "--contains", "--merged", "--points-at"]),
  config: new Set(["--get", "--get-all", "--list", "-l", "--get-regexp", "--show-origin"]),
};
/** Subcommands that list when given no arguments (`git stash` alone is not one: it stashes). */
const GIT_LIST_WITHOUT_ARGS: ReadonlySet<string> = new Set([
  "branch",
  "tag",
  "remote",
  "reflog",
  "submodule",
  "worktree",
]);
const GIT_GLOBAL_OPTIONS_WITH_VALUE: ReadonlySet<string> = new Set([
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
]);

export function classifyBash(command: string): BashClassification {
  const tokens = tokenizeShell(command);
  for (const redirect of tokens.redirects) {
    if (!SAFE_REDIRECT_TARGETS.has(redirect)) return writes(`redirects output to ${redirect}`);
  }
  for (const nested of tokens.substitutions) {
    const inner = classifyBash(nested);
    if (inner.writes) return inner;
  }
  for (const words of tokens.commands) {
    const verdict = classifySimpleCommand(words);
    if (verdict.writes) return verdict;
  }
  return { writes: false };
}

function classifySimpleCommand(input: readonly string[]): BashClassification {
  const words = skipWrappers(input);
  const [head, ...args] = words;
  if (head === undefined) return { writes: false };
  const name = head.split("/").pop() ?? head;

  if (FILE_WRITERS.has(name)) return writes(`${name} changes files`);
  if (SHELLS.has(name)) {
    const script = args[args.indexOf("-c") + 1];
    return args.includes("-c") && script !== undefined ? classifyBash(script) : { writes: false };
  }
  if (name === "xargs") return classifySimpleCommand(args.filter((arg) => !arg.startsWith("-")));
  if (name === "tee") {
    const target = args.find((arg) => !arg.startsWith("-") && !SAFE_REDIRECT_TARGETS.has(arg));
    return target ? writes(`tee writes to ${target}`) : { writes: false };
  }
  if ((name === "sed" || name === "perl" || name === "ruby") && args.some(isInPlaceFlag)) {
    return writes(`${name} edits files in place`);
  }
  if (name === "find") return classifyFind(args);
  if (name === "git") return classifyGit(args);
  if (PACKAGE_MANAGERS.has(name)) {
    const sub = args.find((arg) => !arg.startsWith("-"));
    return sub !== undefined && PACKAGE_WRITE_SUBCOMMANDS.has(sub)
      ? writes(`${name} ${sub} changes files`)
      : { writes: false };
  }
  if (
    name === "curl" &&
    args.some((arg) => /^(-o|-O|--output|--remote-name|--output-dir)$|^-[a-zA-Z]*[oO]$/.test(arg))
  ) {
    return writes("curl writes a download to disk");
  }
  if (name === "wget" && !wgetToStdout(args)) return writes("wget writes a download to disk");
  if (name === "tar" && tarWrites(args)) return writes("tar creates or extracts files");
  if (name === "unzip" && !args.some((arg) => arg === "-l" || arg === "-p" || arg === "-t" || arg === "-v")) {
    return writes("unzip extracts files");
  }
  if (["gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd"].includes(name)) {
    const readOnly = args.some((arg) => /^-[a-zA-Z]*[clt]/.test(arg) || arg === "--stdout" || arg === "--list");
    if (!readOnly) return writes(`${name} replaces files`);
  }
  return { writes: false };
}

function skipWrappers(words: readonly string[]): readonly string[] {
  let index = 0;
  while (index < words.length) {
    const word = words[index] ?? "";
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) {
      index++;
      continue;
    }
    const name = word.split("/").pop() ?? word;
    if (name === "timeout") {
      index += 2;
      continue;
    }
    if (!WRAPPERS.has(name)) break;
    index++;
    while (index < words.length && (words[index] ?? "").startsWith("-")) {
      index += WRAPPER_OPTIONS_WITH_VALUE.has(words[index] ?? "") ? 2 : 1;
    }
  }
  return words.slice(index);
}

function isInPlaceFlag(arg: string): boolean {
  return arg === "--in-place" || arg.startsWith("--in-place=") || /^-[a-zA-Z]*i/.test(arg);
}

function classifyFind(args: readonly string[]): BashClassification {
  if (args.includes("-delete")) return writes("find -delete removes files");
  for (const action of ["-exec", "-execdir", "-ok", "-okdir"]) {
    const at = args.indexOf(action);
    if (at === -1) continue;
    const end = args.findIndex((arg, index) => index > at && (arg === ";" || arg === "+"));
    const verdict = classifySimpleCommand(args.slice(at + 1, end === -1 ? undefined : end));
    if (verdict.writes) return verdict;
  }
  return { writes: false };
}

function classifyGit(args: readonly string[]): BashClassification {
  let index = 0;
  while (index < args.length && (args[index] ?? "").startsWith("-")) {
    const option = args[index] ?? "";
    index += GIT_GLOBAL_OPTIONS_WITH_VALUE.has(option) ? 2 : 1;
  }
  const sub = args[index];
  if (sub === undefined) return { writes: false };
  if (GIT_READ_SUBCOMMANDS.has(sub)) return { writes: false };
  const rest = args.slice(index + 1);
  if (rest.length === 0 && GIT_LIST_WITHOUT_ARGS.has(sub)) return { writes: false };
  if (GIT_READ_FIRST_ARGS[sub]?.has(rest[0] ?? "")) return { writes: false };
  const readOptions = GIT_READ_OPTIONS[sub];
  if (readOptions && rest.some((arg) => readOptions.has(arg))) return { writes: false };
  return writes(`git ${sub} changes the repository`);
}

function wgetToStdout(args: readonly string[]): boolean {
  if (args.includes("--spider")) return true;
  return args.some((arg, index) => {
    if (arg === "-O" || arg === "--output-document") return ["-", "/dev/null"].includes(args[index + 1] ?? "");
    return /^(-[a-zA-Z]*O-|--output-document=(-|\/dev\/null))$/.test(arg);
  });
}

function tarWrites(args: readonly string[]): boolean {
  // Old-style bundled options ("tar xzf a.tgz") come first without a dash.
  const bundled = args[0] !== undefined && !args[0].startsWith("-") ? args[0] : "";
  if (/[xc]/.test(bundled)) return true;
  return args.some(
    (arg) => /^-[a-zA-Z]*[xc]/.test(arg) || ["--extract", "--create", "--get", "--append"].includes(arg),
  );
}

function writes(reason: string): BashClassification {
  return { writes: true, reason };
}
