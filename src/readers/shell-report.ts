/**
 * The shell report Gemini CLI and its forks (Qwen Code) hand the model instead of a command's bare output:
 * optional `Command:` and `Directory:` lines, `Output: …` (the output, possibly many lines), then `Error: (none)`,
 * `Exit Code: N`, `Signal: …`, `Background PIDs: …`, `Process Group PGID: …`; Gemini 0.61 wraps it all in
 * `<untrusted_context>`. cairn keeps the output as the command printed it and the exit code apart.
 */

const ENVELOPE = /^<untrusted_context>\n([\s\S]*?)\n?<\/untrusted_context>\s*$/;
const HEAD = /^(?:Command|Directory): .*$/;
const TAIL =
  /^(?:Error: \(none\)|Exit Code: (?:-?\d+|\(none\))|Signal: .*|Background PIDs: .*|Process Group PGID: .*)$/;
const EXIT = /^Exit Code: (-?\d+)$/m;

export interface ShellReport {
  output: string;
  exitCode: number | null;
}

/** The command's own output and exit code from a shell report; null when the text is not one. */
export function shellReport(text: string): ShellReport | null {
  const body = ENVELOPE.exec(text)?.[1] ?? text;
  const lines = body.split("\n");
  let start = 0;
  while (start < lines.length && HEAD.test(lines[start]!)) start++;
  if (!lines[start]?.startsWith("Output: ") && lines[start] !== "Output:") return null;
  let end = lines.length;
  while (end > start + 1 && TAIL.test(lines[end - 1]!)) end--;
  // Tail lines were read off the end: a report always has at least one of them.
  if (end === lines.length && body === text) return null;
  const first = lines[start]!.replace(/^Output: ?/, "");
  const output = [first, ...lines.slice(start + 1, end)].join("\n");
  const exit = EXIT.exec(lines.slice(end).join("\n"));
  return { output: output === "(empty)" ? "" : output, exitCode: exit ? Number(exit[1]) : null };
}
