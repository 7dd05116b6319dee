/**
 * Which options of a program take a value (`git -C dir`, `node -e 'code'`, `timeout -s KILL 60`, `npm --prefix web`):
 * without knowing it, a value is read as the program a wrapper runs, as a subcommand, or as a script, and the
 * option is lost from what was run. One table, read by the shell reader (wrappers), the command's check family and
 * the resume ledger's command heads.
 */

/** Options that take the next word as their value, per program (the `--opt=value` and `-Xvalue` forms need none). */
const VALUED: Record<string, readonly string[]> = {
  // wrappers
  timeout: ["-s", "--signal", "-k", "--kill-after"],
  gtimeout: ["-s", "--signal", "-k", "--kill-after"],
  sudo: ["-u", "--user", "-g", "--group", "-h", "--host", "-p", "--prompt", "-C", "--close-from", "-D", "--chdir"],
  nice: ["-n", "--adjustment"],
  env: ["-u", "--unset", "-C", "--chdir", "-S", "--split-string"],
  stdbuf: ["-i", "--input", "-o", "--output", "-e", "--error"],
  time: ["-f", "--format", "-o", "--output"],
  exec: ["-a"],
  "xvfb-run": ["-n", "--server-num", "-s", "--server-args", "-f", "--auth-file", "-e", "--error-file", "-w", "--wait"],
  // shells and interpreters
  bash: ["-o", "+o", "-O", "+O", "--rcfile", "--init-file"],
  sh: ["-o", "+o"],
  zsh: ["-o", "+o"],
  dash: ["-o", "+o"],
  ksh: ["-o", "+o"],
  node: [
    "-e",
    "--eval",
    "-p",
    "--print",
    "-r",
    "--require",
    "--import",
    "--loader",
    "--experimental-loader",
    "-C",
    "--conditions",
    "--input-type",
    "--env-file",
    "--test-name-pattern",
    "--test-reporter",
    "--test-reporter-destination",
  ],
  python: ["-c", "-m", "-W", "-X"],
  python3: ["-c", "-m", "-W", "-X"],
  ruby: ["-e", "-r", "-I", "-C"],
  perl: ["-e", "-E", "-I"],
  deno: ["--config", "--import-map"],
  bun: ["--cwd", "-e", "--eval", "-p", "--print", "-r", "--preload", "--config"],
  // package managers and build tools
  npm: ["--prefix", "-w", "--workspace", "--userconfig", "--cache", "--registry", "--loglevel"],
  pnpm: ["-C", "--dir", "-F", "--filter", "--workspace-dir", "--reporter", "--loglevel"],
  yarn: ["--cwd"],
  npx: ["-p", "--package", "-c", "--call"],
  pnpx: ["-p", "--package", "-c", "--call"],
  bunx: ["-p", "--package"],
  uv: ["--directory", "--project", "-p", "--python", "--with", "--cache-dir", "--config-file"],
  poetry: ["-C", "--directory", "-P", "--project"],
  pipenv: ["--python"],
  make: [
    "-C",
    "--directory",
    "-f",
    "--file",
    "--makefile",
    "-I",
    "--include-dir",
    "-o",
    "--old-file",
    "-W",
    "--what-if",
  ],
  just: ["-f", "--justfile", "-d", "--working-directory", "--set"],
  go: ["-C"],
  cargo: ["-C", "-Z", "--config", "--manifest-path", "--color"],
  git: ["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--super-prefix"],
  gh: ["-R", "--repo"],
  docker: ["-H", "--host", "--context", "-c", "--config", "-l", "--log-level"],
  kubectl: ["-n", "--namespace", "--context", "--kubeconfig", "--cluster", "--user", "-s", "--server"],
  helm: ["-n", "--namespace", "--kube-context", "--kubeconfig"],
  aws: ["--profile", "--region", "--output", "--endpoint-url"],
  gcloud: ["--project", "--account", "--configuration"],
};

/** Options whose value is the program an interpreter runs (`node -e CODE`, `python -m MODULE`): options end there. */
const INLINE: Record<string, readonly string[]> = {
  node: ["-e", "--eval", "-p", "--print"],
  python: ["-c", "-m"],
  python3: ["-c", "-m"],
  ruby: ["-e"],
  perl: ["-e", "-E"],
  bun: ["-e", "--eval", "-p", "--print"],
};

/** Options whose value is the work itself, kept when a command is shown by its form: a message, inline code. */
const TELLING: Record<string, readonly string[]> = { ...INLINE, git: ["-m", "--message"] };

function bare(program: string): string {
  return program.replace(/^.*\//, "");
}

/** Whether `word`, given to `program`, is an option that takes the next word as its value. */
export function takesValue(program: string, word: string): boolean {
  if (!word.startsWith("-") && !word.startsWith("+")) return false;
  return (VALUED[pythonName(bare(program))] ?? []).includes(optionOf(word));
}

/** The option a word gives: `-am` ends with `-m` (a cluster of short flags), `--message=x` is `--message`. */
function optionOf(word: string): string {
  return /^-[A-Za-z]{2,}$/.test(word) ? `-${word.at(-1)}` : word.replace(/=.*$/, "");
}

/** Whether an option's value says what the command did (a commit message, inline code), not where or how. */
export function tellingValue(program: string, word: string): boolean {
  return (TELLING[pythonName(bare(program))] ?? []).includes(optionOf(word));
}

/** A command's words with its program's leading options apart: `git -C x commit -m y` → options, `commit -m y`. */
export interface ReadCommand {
  program: string;
  /** Options before the first operand, each with its value when it takes one. */
  options: Array<{ flag: string; value: string | null }>;
  /** The words after those options: a subcommand, a script, files, and their own options. */
  rest: string[];
}

export function readCommand(words: readonly string[]): ReadCommand {
  const program = words[0] ?? "";
  const options: ReadCommand["options"] = [];
  let i = 1;
  for (; i < words.length; i++) {
    const w = words[i]!;
    // `cargo +nightly test`: a toolchain, as rustup's proxies read it.
    const option = (w.startsWith("-") && w !== "-" && w !== "--") || (w.startsWith("+") && w.length > 1);
    if (!option) break;
    if (!takesValue(program, w) || i + 1 >= words.length) {
      options.push({ flag: w, value: null });
      continue;
    }
    options.push({ flag: w, value: words[i + 1]! });
    i++;
    // What follows inline code or a module is that program's, not the interpreter's.
    if ((INLINE[pythonName(bare(program))] ?? []).includes(optionOf(w))) {
      i++;
      break;
    }
  }
  if (words[i] === "--") i++;
  return { program, options, rest: words.slice(i) };
}

/** `python3.12` reads its options as `python` does. */
function pythonName(prog: string): string {
  return /^python3?\.\d+$/.test(prog) ? "python" : prog;
}
