/**
 * Entities a brief is measured on (resume-method §4.7–4.8): files, command heads, error signatures and code
 * identifiers. The same extraction serves validation (entity overlap), the eval's held-out recall and scoring.
 */
import { shellQuote } from "../topology/command.ts";
import { normalizeSignature } from "../topology/error-signature.ts";
import { readCommand, tellingValue } from "../topology/options.ts";
import { effectiveWords, parseShell } from "../topology/shell.ts";
import { clip, stripAnsi } from "../topology/text.ts";

/** Programs whose runs say nothing about the work itself: looking around, not doing. */
const INSPECTION = new Set([
  "cat",
  "cd",
  "echo",
  "find",
  "grep",
  "egrep",
  "fgrep",
  "head",
  "ls",
  "pwd",
  "rg",
  "sed",
  "awk",
  "tail",
  "wc",
  "which",
  "tree",
  "sleep",
  "true",
  "false",
  "test",
  "[",
  "printf",
  "file",
  "stat",
  "du",
  "df",
  "date",
  "env",
  "type",
  "command",
  "realpath",
  "dirname",
  "basename",
  "sort",
  "uniq",
  "diff",
  "cmp",
  "mkdir",
  "touch",
  "chmod",
  "cp",
  "mv",
  "rm",
  "ln",
  "open",
  "clear",
  "set",
  "export",
  "source",
  "xargs",
]);

/** Programs with a subcommand that names the action (`git push`, `cargo test`). */
const SUBCOMMANDED = new Set([
  "git",
  "gh",
  "cargo",
  "go",
  "docker",
  "kubectl",
  "pip",
  "pip3",
  "uv",
  "poetry",
  "make",
  "just",
  "dotnet",
  "swift",
  "brew",
  "apt",
  "apt-get",
  "deno",
  "bun",
  "pnpm",
  "yarn",
  "npm",
  "npx",
  "bunx",
  "pnpx",
  "node",
  "tsx",
  "python",
  "python3",
  "ruby",
  "bash",
  "sh",
  "zsh",
  "terraform",
  "helm",
  "aws",
  "gcloud",
]);
const RUNS_SCRIPT = new Set(["run", "run-script", "exec", "dlx", "x"]);

/**
 * The head of a canonical command: the program and the word that says what it does (`npm run check`,
 * `git push`, `npx tsc`, `pytest`, `node -e`, `python3 -m pytest`), or null for inspection commands (`grep`, `ls`,
 * `cat`). A program's own options and their values are passed over (`git -C repo commit` is `git commit`).
 */
export function commandHead(canonical: string): string | null {
  return headOf(firstCommandWords(canonical));
}

function headOf(words: readonly string[]): string | null {
  const prog = (words[0] ?? "").replace(/^.*\//, "");
  if (prog === "" || INSPECTION.has(prog) || !/^[\w.@+-]+$/.test(prog)) return null;
  const read = readCommand(words);
  // Inline code or a module stands where a script would: `node -e`, `python3 -m pytest`.
  const inline = read.options.find((o) => o.value !== null && tellingValue(prog, o.flag));
  if (inline) return inline.flag === "-m" ? `${prog} -m ${inline.value}` : `${prog} ${inline.flag}`;
  if (!SUBCOMMANDED.has(prog)) return prog;
  const rest = read.rest.filter((w) => !w.startsWith("-"));
  const sub = rest[0];
  if (!sub) return prog;
  if (RUNS_SCRIPT.has(sub) && rest[1]) return `${prog} ${sub} ${rest[1]}`;
  return `${prog} ${sub}`;
}

/** The words of the first command of a line, as its program gets them (assignments and wrappers passed over). */
function firstCommandWords(canonical: string): string[] {
  return effectiveWords(parseShell(canonical)[0]?.pipeline[0]?.words ?? []);
}

/** One command of a line: its text in canonical form, and whether a line that succeeded surely ran it. */
export interface CommandPart {
  text: string;
  sure: boolean;
}

/**
 * The commands of a canonical command line, each as its own canonical text: the first stage of each pipeline
 * (later stages filter its output). After `||` a command ran only if the one before failed, so it is not sure.
 */
export function commandParts(canonical: string): CommandPart[] {
  const items = parseShell(canonical);
  const out: CommandPart[] = [];
  let sure = true;
  items.forEach((item, i) => {
    if (i > 0 && items[i - 1]!.next === "||") sure = false;
    const words = item.pipeline[0]?.words ?? [];
    if (words.length > 0) out.push({ text: words.map(shellQuote).join(" "), sure });
  });
  return out;
}

/** A command longer than this is clipped, its long values first (a heredoc, inline code, a long message). */
const SHOWN_COMMAND_CHARS = 200;
const SHOWN_VALUE_CHARS = 60;

/**
 * A command as it was run (its canonical text), for a brief to quote: verbatim, flags and arguments included, so the
 * next agent can run it again. Only a very long one is clipped: its long values first, so every flag stays, then
 * its end, marked with an ellipsis.
 */
export function shownCommand(canonical: string): string {
  if (canonical.length <= SHOWN_COMMAND_CHARS) return canonical;
  const items = parseShell(canonical);
  const stage = items.length === 1 && items[0]!.pipeline.length === 1 ? items[0]!.pipeline[0]! : null;
  if (stage === null || stage.heredoc !== undefined) return clip(canonical, SHOWN_COMMAND_CHARS);
  const words = stage.words.map((w) => shellQuote(clip(w, SHOWN_VALUE_CHARS)));
  return clip(words.join(" "), SHOWN_COMMAND_CHARS);
}

/** Words that look like identifiers but are English, product names or too common to tell anything. */
const COMMON = new Set([
  "GitHub",
  "GitLab",
  "TypeScript",
  "JavaScript",
  "PostgreSQL",
  "MySQL",
  "SQLite",
  "MongoDB",
  "GraphQL",
  "OpenAI",
  "ChatGPT",
  "YouTube",
  "LinkedIn",
  "WebSocket",
  "VSCode",
  "iTerm",
  "macOS",
  "iOS",
  "README",
  "TODO",
  "JSON",
  "HTML",
  "HTTP",
  "HTTPS",
  "true",
  "false",
  "null",
  "undefined",
  "this",
  "const",
  "return",
  "import",
  "export",
  "function",
  "string",
  "number",
  "boolean",
]);

/**
 * Code identifiers in a text: camelCase, PascalCase with an inner capital, snake_case, CONSTANT_CASE and
 * dotted names (`Theme.fg`), at least four characters. Plain words are not identifiers.
 */
/** A dotted name that is a file name or a host, not a code path. */
const FILE_OR_HOST =
  /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs|md|mdx|json|jsonl|py|rs|go|rb|java|kt|swift|c|h|cc|cpp|hpp|cs|php|sh|bash|zsh|txt|yml|yaml|toml|ini|cfg|conf|css|scss|less|html|htm|xml|svg|png|jpg|jpeg|gif|lock|log|sql|prisma|env|csv|pdf|zip|gz|tar|com|org|net|io|dev|ly|ai|app|co|git|local)$/i;

export function identifiersIn(text: string, out: Set<string> = new Set()): Set<string> {
  for (const m of stripAnsi(text).matchAll(/[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*/g)) {
    const t = m[0];
    if (t.length < 4 || t.length > 80 || COMMON.has(t)) continue;
    if (t.includes(".") && FILE_OR_HOST.test(t)) continue;
    if (/[a-z][A-Z]|[A-Z]{2}[a-z]/.test(t) || (/_/.test(t) && /[a-zA-Z]{2}/.test(t) && !/^_+$/.test(t))) {
      out.add(t);
    } else if (/\.[A-Za-z_$]/.test(t)) {
      out.add(t);
    }
  }
  return out;
}

/** Backticked spans of a user message that read as code (`setTheme`, `theme.ts`). */
export function backticked(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/`([^`\n]{3,80})`/g)) {
    const t = m[1]!.trim();
    if (/^[\w$.:/@-]+(\(\))?$/.test(t)) out.push(t.replace(/\(\)$/, ""));
  }
  return out;
}

/**
 * A text normalised the way error signatures are (paths to base names, hex to H, digits to N), per line, so a
 * signature can be looked for in text that holds the raw error line.
 */
export function signatureView(text: string): string {
  return text
    .split("\n")
    .map((l) => (/\d|\//.test(l) ? normalizeSignatureLine(l) : l.replace(/\s+/g, " ").trim()))
    .join("\n");
}

function normalizeSignatureLine(line: string): string {
  // normalizeSignature clips at 140 characters; a long line is normalised in pieces so nothing is cut.
  if (line.length <= 140) return normalizeSignature(line);
  const parts: string[] = [];
  for (let i = 0; i < line.length; i += 120) parts.push(normalizeSignature(line.slice(i, i + 140)));
  return parts.join(" ");
}

/** Whether a text mentions a command head: its words in order on one line (`npm run check` in `npm run check -- x`). */
export function mentionsCommand(text: string, head: string): boolean {
  if (text.includes(head)) return true;
  const words = head.split(" ");
  const last = words[words.length - 1]!;
  if (!text.includes(last) || !text.includes(words[0]!)) return false;
  const re = new RegExp(`(^|[\\s\`'"(])${words.map(escapeRe).join("\\b[^\\n]*?\\s")}\\b`, "m");
  return re.test(text);
}

export function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Weighted Jaccard of two weighted sets: Σ min(a, b) / Σ max(a, b) over the union of keys; 1 for two empty sets.
 */
export function weightedJaccard(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  let num = 0;
  let den = 0;
  for (const [k, wa] of a) {
    const wb = b.get(k) ?? 0;
    num += Math.min(wa, wb);
    den += Math.max(wa, wb);
  }
  for (const [k, wb] of b) if (!a.has(k)) den += wb;
  return den === 0 ? 1 : num / den;
}
