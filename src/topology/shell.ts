/**
 * Just enough of POSIX shell syntax to split a command line into pipelines and words: quotes, escapes, `$(…)`,
 * redirections and here-documents. It is a reader of what agents ran, not an interpreter; anything it cannot
 * follow stays inside a word.
 */
import { takesValue } from "./options.ts";

export interface Redirect {
  /** `>`, `>>`, `<`, `2>`, `&>`, `2>&1`, … */
  op: string;
  target: string;
}

export interface SimpleCommand {
  words: string[];
  redirects: Redirect[];
  /** The body of the command's here-document(s) (`cat > f <<'EOF' … EOF`), when it has one. */
  heredoc?: string;
}

/** Commands joined by `|`. */
export type Pipeline = SimpleCommand[];

export interface ListItem {
  pipeline: Pipeline;
  /** The operator that follows this pipeline: `&&`, `||`, `;`, `&`, newline, or null at the end. */
  next: string | null;
}

/** Characters with no special meaning to the shell (sticky, used from the current position). */
const PLAIN = /[^\s\\'"$`#&|;()<>{}]+/y;
const REDIRECT_RE = /^(&>>|&>|>>|>\||>&|>|<<<|<<-|<<|<&|<>|<)/;

/** Parses a command line into a list of pipelines. Never throws. */
export function parseShell(input: string): ListItem[] {
  const items: ListItem[] = [];
  let pipeline: Pipeline = [];
  let cmd: SimpleCommand = { words: [], redirects: [] };
  let word = "";
  let inWord = false;
  let pendingRedirect: string | null = null;
  const heredocs: Array<{ delim: string; cmd: SimpleCommand }> = [];
  let depth = 0;
  let i = 0;
  const n = input.length;

  const endWord = () => {
    if (!inWord) return;
    if (pendingRedirect !== null) {
      const bare = pendingRedirect.replace(/^\d+/, "");
      if (bare === "<<" || bare === "<<-") {
        heredocs.push({ delim: word, cmd });
        cmd.heredoc = "";
      } else cmd.redirects.push({ op: pendingRedirect, target: word });
      pendingRedirect = null;
    } else cmd.words.push(word);
    word = "";
    inWord = false;
  };
  const endCommand = () => {
    endWord();
    if (cmd.words.length > 0 || cmd.redirects.length > 0) pipeline.push(cmd);
    cmd = { words: [], redirects: [] };
  };
  const endPipeline = (op: string | null) => {
    endCommand();
    if (pipeline.length > 0) items.push({ pipeline, next: op });
    else if (items.length > 0 && op !== null) items[items.length - 1]!.next = op;
    pipeline = [];
  };
  const skipHeredocBodies = () => {
    // Called at a newline: the bodies of pending here-documents follow, each ended by its delimiter line.
    while (heredocs.length > 0) {
      const { delim, cmd: owner } = heredocs.shift()!;
      const start = i;
      let end = n;
      for (;;) {
        const nl = input.indexOf("\n", i);
        const lineEnd = nl === -1 ? n : nl;
        const line = input.slice(i, lineEnd);
        if (line.replace(/^\t+/, "") === delim) {
          end = i;
          i = nl === -1 ? n : nl + 1;
          break;
        }
        i = nl === -1 ? n : nl + 1;
        if (i >= n) break;
      }
      const body = input.slice(start, end).replace(/\n$/, "");
      owner.heredoc = owner.heredoc ? `${owner.heredoc}\n${body}` : body;
    }
  };

  while (i < n) {
    // Most of a command line is ordinary word characters: take a run of them at once.
    PLAIN.lastIndex = i;
    const run = PLAIN.exec(input);
    if (run !== null) {
      const text = run[0];
      // A run of digits right before a redirection is its file descriptor; leave that to the slow path.
      if (!(/^\d+$/.test(text) && (input[i + text.length] === ">" || input[i + text.length] === "<"))) {
        word += text;
        inWord = true;
        i += text.length;
        continue;
      }
    }
    const c = input[i]!;
    if (c === "\\" && i + 1 < n) {
      if (input[i + 1] === "\n") {
        i += 2;
        continue;
      }
      word += input[i + 1];
      inWord = true;
      i += 2;
      continue;
    }
    if (c === "'") {
      const end = input.indexOf("'", i + 1);
      word += input.slice(i + 1, end === -1 ? n : end);
      inWord = true;
      i = end === -1 ? n : end + 1;
      continue;
    }
    if (c === '"') {
      i++;
      while (i < n && input[i] !== '"') {
        if (input[i] === "\\" && i + 1 < n && '"\\$`'.includes(input[i + 1]!)) {
          word += input[i + 1];
          i += 2;
        } else word += input[i++];
      }
      i++;
      inWord = true;
      continue;
    }
    if (c === "$" && input[i + 1] === "(") {
      const end = matchParen(input, i + 1);
      word += input.slice(i, end);
      inWord = true;
      i = end;
      continue;
    }
    if (c === "`") {
      const end = input.indexOf("`", i + 1);
      word += input.slice(i, end === -1 ? n : end + 1);
      inWord = true;
      i = end === -1 ? n : end + 1;
      continue;
    }
    if (c === "#" && !inWord) {
      const nl = input.indexOf("\n", i);
      i = nl === -1 ? n : nl;
      continue;
    }
    if (c === " " || c === "\t") {
      endWord();
      i++;
      continue;
    }
    if (c === "\n") {
      endPipeline("\n");
      i++;
      skipHeredocBodies();
      continue;
    }
    if (c === "&" && input[i + 1] === "&") {
      endPipeline("&&");
      i += 2;
      continue;
    }
    if (c === "|" && input[i + 1] === "|") {
      endPipeline("||");
      i += 2;
      continue;
    }
    if (c === "|") {
      endCommand();
      i += input[i + 1] === "&" ? 2 : 1;
      continue;
    }
    if (c === ";") {
      endPipeline(";");
      i += input[i + 1] === ";" ? 2 : 1;
      continue;
    }
    if (
      (!inWord && c === "(") ||
      (c === ")" && depth > 0) ||
      (!inWord && (c === "{" || c === "}") && /[\s;]|^$/.test(input[i + 1] ?? ""))
    ) {
      // Subshells and groups: their contents are read as ordinary commands of the list.
      if (c === "(") depth++;
      else if (c === ")") depth--;
      endPipeline(";");
      i++;
      continue;
    }
    if (c === ">" || c === "<" || (c === "&" && input[i + 1] === ">")) {
      let fd = "";
      if (inWord && pendingRedirect === null && /^\d+$/.test(word)) {
        fd = word;
        word = "";
        inWord = false;
      } else endWord();
      const op = REDIRECT_RE.exec(input.slice(i, i + 4))?.[0] ?? c;
      i += op.length;
      if (op === ">&" || op === "<&") {
        const dup = /^\s*(\d+|-)/.exec(input.slice(i, i + 12));
        if (dup) {
          cmd.redirects.push({ op: fd + op, target: dup[1]! });
          i += dup[0].length;
          continue;
        }
      }
      pendingRedirect = fd + op;
      continue;
    }
    if (c === "&") {
      endPipeline("&");
      i++;
      continue;
    }
    word += c;
    inWord = true;
    i++;
  }
  endPipeline(null);
  return items;
}

function matchParen(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    const c = s[i];
    if (c === "(") depth++;
    else if (c === ")") {
      depth--;
      if (depth === 0) return i + 1;
    } else if (c === "'" || c === '"') {
      const end = s.indexOf(c, i + 1);
      if (end === -1) return s.length;
      i = end;
    }
  }
  return s.length;
}

/** `VAR=value` words before a command. */
export function isAssignment(word: string): boolean {
  return word.includes("=") && /^[A-Za-z_][A-Za-z0-9_]*=/.test(word);
}

/** Wrappers that run the real command given after them. */
const WRAPPERS: Record<string, number> = {
  time: 0,
  nice: 0,
  nohup: 0,
  sudo: 0,
  command: 0,
  exec: 0,
  xvfb_run: 0,
  "xvfb-run": 0,
  unbuffer: 0,
  stdbuf: 0,
  env: 0,
  timeout: 1,
  gtimeout: 1,
};

/**
 * The words of the command that actually runs: leading assignments and wrappers such as `timeout -s KILL 60` or
 * `env -u A B=1` are dropped, with their options' values (options.ts). `bash -lc "…"` is not unwrapped here (see
 * `unwrapShell`).
 */
export function effectiveWords(words: string[]): string[] {
  let i = 0;
  while (i < words.length) {
    const w = words[i]!;
    if (isAssignment(w)) {
      i++;
      continue;
    }
    const skip = WRAPPERS[w];
    // `command -v npm` looks a program up; it does not run it.
    if (skip === undefined || (w === "command" && /^-[vV]$/.test(words[i + 1] ?? ""))) break;
    i++;
    while (i < words.length && (words[i]!.startsWith("-") || isAssignment(words[i]!))) {
      if (takesValue(w, words[i]!)) i++;
      i++;
    }
    i += skip;
  }
  return words.slice(i);
}

/** `bash -lc 'cmd'`, `sh -c "cmd"`, `bash -euo pipefail -c …` → the inner script; otherwise null. */
export function unwrapShell(words: string[]): string | null {
  const w = effectiveWords(words);
  const shell = w[0]?.includes("/") ? w[0].replace(/^.*\//, "") : w[0];
  if (!shell || !["bash", "sh", "zsh", "dash", "ksh"].includes(shell)) return null;
  for (let i = 1; i < w.length; i++) {
    const flag = w[i]!;
    if (!flag.startsWith("-") && !flag.startsWith("+")) return null;
    if (flag.startsWith("--")) {
      if (takesValue(shell, flag)) i++;
    } else if (flag.startsWith("-") && flag.includes("c")) return w[i + 1] ?? null;
    // `-o pipefail`, `-euo pipefail`, `+O extglob`: the option's name follows.
    else if (/^[-+][A-Za-z]*[oO]$/.test(flag)) i++;
  }
  return null;
}
