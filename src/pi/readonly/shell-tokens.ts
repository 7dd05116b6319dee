/**
 * A small shell lexer for the read-only classifier (pure). It is not a shell parser: it splits a command line into
 * simple commands (word lists), collects the targets of output redirections, and lifts out the text of command and
 * process substitutions so they can be classified too. Quotes, escapes, comments and here-document bodies are
 * honoured so that data never reads as a command.
 */

export interface ShellTokens {
  /** Each simple command as its words, quotes removed. */
  commands: string[][];
  /** Targets of redirections that write (`>`, `>>`, `>|`, `&>`, `&>>`, `<>`, `>& file`). */
  redirects: string[];
  /** Inner text of `$(...)`, backticks, `<(...)` and `>(...)`. */
  substitutions: string[];
}

const SEPARATORS: ReadonlySet<string> = new Set([";", "&", "|", "(", ")", "\n"]);

export function tokenizeShell(input: string): ShellTokens {
  const result: ShellTokens = { commands: [], redirects: [], substitutions: [] };
  let words: string[] = [];
  let word = "";
  let inWord = false;
  /** Set after a redirection operator: the next word is its target, not an argument. */
  let pendingRedirect: "write" | "read" | "dup" | null = null;
  const heredocs: Array<{ delimiter: string; stripTabs: boolean }> = [];
  let index = 0;

  const endWord = () => {
    if (!inWord) return;
    if (pendingRedirect === "write") result.redirects.push(word);
    else if (pendingRedirect === "dup" && !/^(\d+|-)$/.test(word)) result.redirects.push(word);
    else if (pendingRedirect === null) words.push(word);
    pendingRedirect = null;
    word = "";
    inWord = false;
  };
  const endCommand = () => {
    endWord();
    const meaningful = words.filter((w) => w !== "" && w !== "{" && w !== "}" && w !== "!");
    if (meaningful.length > 0) result.commands.push(meaningful);
    words = [];
  };

  while (index < input.length) {
    const char = input[index] ?? "";
    const next = input[index + 1] ?? "";

    if (char === "\\") {
      if (next === "\n") {
        index += 2;
        continue;
      }
      word += next;
      inWord = true;
      index += 2;
      continue;
    }
    if (char === "'") {
      const end = input.indexOf("'", index + 1);
      word += input.slice(index + 1, end === -1 ? undefined : end);
      inWord = true;
      index = end === -1 ? input.length : end + 1;
      continue;
    }
    if (char === '"') {
      index = readDoubleQuoted(input, index + 1, result, (text) => {
        word += text;
      });
      inWord = true;
      continue;
    }
    if (char === "`") {
      const end = input.indexOf("`", index + 1);
      result.substitutions.push(input.slice(index + 1, end === -1 ? undefined : end));
      inWord = true;
      index = end === -1 ? input.length : end + 1;
      continue;
    }
    if (char === "$" && next === "(") {
      if (input[index + 2] === "(") {
        index = skipBalanced(input, index + 1);
      } else {
        const end = skipBalanced(input, index + 1);
        result.substitutions.push(input.slice(index + 2, end - 1));
        index = end;
      }
      inWord = true;
      continue;
    }
    if ((char === "<" || char === ">") && next === "(" && !inWord) {
      const end = skipBalanced(input, index + 1);
      result.substitutions.push(input.slice(index + 2, end - 1));
      inWord = true;
      index = end;
      continue;
    }
    if (char === "#" && !inWord) {
      while (index < input.length && input[index] !== "\n") index++;
      continue;
    }
    const redirect = matchRedirect(input, index);
    if (redirect) {
      // A leading file descriptor ("2>") was read as the current word; it belongs to the operator.
      if (inWord && /^\d+$/.test(word)) {
        word = "";
        inWord = false;
      } else {
        endWord();
      }
      pendingRedirect = redirect.kind;
      if (redirect.heredoc) {
        const delimiter = readWordAt(input, index + redirect.length);
        heredocs.push({ delimiter: delimiter.text, stripTabs: redirect.heredoc === "strip" });
        pendingRedirect = null;
        index = delimiter.end;
        continue;
      }
      index += redirect.length;
      continue;
    }
    if (char === "\n" && heredocs.length > 0) {
      endCommand();
      index = skipHeredocBodies(input, index + 1, heredocs.splice(0));
      continue;
    }
    if (SEPARATORS.has(char)) {
      endCommand();
      index++;
      continue;
    }
    if (/\s/.test(char)) {
      endWord();
      index++;
      continue;
    }
    word += char;
    inWord = true;
    index++;
  }
  endCommand();
  return result;
}

interface RedirectMatch {
  kind: "write" | "read" | "dup";
  length: number;
  heredoc?: "plain" | "strip";
}

function matchRedirect(input: string, index: number): RedirectMatch | undefined {
  const char = input[index];
  if (char !== "<" && char !== ">" && !(char === "&" && input[index + 1] === ">")) return undefined;
  const rest = input.slice(index, index + 4);
  if (rest.startsWith("&>>")) return { kind: "write", length: 3 };
  if (rest.startsWith("&>")) return { kind: "write", length: 2 };
  if (rest.startsWith("<<<")) return { kind: "read", length: 3 };
  if (rest.startsWith("<<-")) return { kind: "read", length: 3, heredoc: "strip" };
  if (rest.startsWith("<<")) return { kind: "read", length: 2, heredoc: "plain" };
  if (rest.startsWith("<>")) return { kind: "write", length: 2 };
  if (rest.startsWith("<&")) return { kind: "dup", length: 2 };
  if (rest.startsWith(">>")) return { kind: "write", length: 2 };
  if (rest.startsWith(">|")) return { kind: "write", length: 2 };
  if (rest.startsWith(">&")) return { kind: "dup", length: 2 };
  if (rest.startsWith(">")) return { kind: "write", length: 1 };
  return { kind: "read", length: 1 };
}

/** Read a double-quoted string starting after the opening quote; returns the index after the closing quote. */
function readDoubleQuoted(input: string, start: number, result: ShellTokens, append: (text: string) => void): number {
  let index = start;
  while (index < input.length && input[index] !== '"') {
    const char = input[index] ?? "";
    if (char === "\\" && index + 1 < input.length) {
      append(input[index + 1] ?? "");
      index += 2;
    } else if (char === "$" && input[index + 1] === "(" && input[index + 2] !== "(") {
      const end = skipBalanced(input, index + 1);
      result.substitutions.push(input.slice(index + 2, end - 1));
      index = end;
    } else if (char === "`") {
      const end = input.indexOf("`", index + 1);
      result.substitutions.push(input.slice(index + 1, end === -1 ? undefined : end));
      index = end === -1 ? input.length : end + 1;
    } else {
      append(char);
      index++;
    }
  }
  return index + 1;
}

/** Index just after the parenthesis that closes the one at `open`, honouring quotes. */
function skipBalanced(input: string, open: number): number {
  let depth = 0;
  let index = open;
  while (index < input.length) {
    const char = input[index];
    if (char === "\\") {
      index += 2;
      continue;
    }
    if (char === "'" || char === '"') {
      const end = input.indexOf(char, index + 1);
      index = end === -1 ? input.length : end + 1;
      continue;
    }
    if (char === "(") depth++;
    if (char === ")") {
      depth--;
      if (depth === 0) return index + 1;
    }
    index++;
  }
  return input.length;
}

function readWordAt(input: string, start: number): { text: string; end: number } {
  let index = start;
  while (input[index] === " " || input[index] === "\t") index++;
  let text = "";
  while (index < input.length && !/[\s;&|<>()]/.test(input[index] ?? "")) {
    const char = input[index];
    if (char !== "'" && char !== '"' && char !== "\\") text += char;
    index++;
  }
  return { text, end: index };
}

function skipHeredocBodies(
  input: string,
  start: number,
  heredocs: ReadonlyArray<{ delimiter: string; stripTabs: boolean }>,
): number {
  let index = start;
  for (const heredoc of heredocs) {
    while (index < input.length) {
      const lineEnd = input.indexOf("\n", index);
      const line = input.slice(index, lineEnd === -1 ? undefined : lineEnd);
      index = lineEnd === -1 ? input.length : lineEnd + 1;
      if ((heredoc.stripTabs ? line.replace(/^\t+/, "") : line) === heredoc.delimiter) break;
    }
  }
  return index;
}
