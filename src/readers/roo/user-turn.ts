/**
 * A user-role message of Roo Code's conversation, block by block. Before native tool calling each tool's result is
 * a text block `[read_file for 'a.ts'] Result:` followed by blocks of its output; the person's words come as
 * `<task>…</task>` (the first message), `<user_message>…</user_message>` (new instructions when a task resumes),
 * `<feedback>…</feedback>` (a reply to a completion) and `<answer>…</answer>` (a reply to a question); every turn
 * ends with an `<environment_details>` block the harness adds. Native results are `tool_result` blocks.
 */
import { contentText, type Obj, str } from "../json.ts";
import type { LineSink } from "../line-loop.ts";

export interface Pending {
  callId: string;
  name: string;
}

const HEADER = /^\[([a-z_]+)\b([\s\S]*?)\] Result:/;
const WORKSPACE = /# Current Workspace Directory \(([^)\n]+)\) Files/;
const WORDS = /<(task|user_message)>\n?([\s\S]*?)\n?<\/\1>/g;
/** The person's reply inside the result of the two tools that wait for one. */
const REPLY = /<(feedback|answer)>\n?([\s\S]*?)\n?<\/\1>/g;
const REPLIED = new Set(["attempt_completion", "ask_followup_question"]);

interface Base {
  line: number;
  ts: string | null;
}

export interface TurnFacts {
  cwd: string | null;
}

/**
 * Emits the turn's results, prompts and harness text; `pending` is the calls still waiting for a result, in order.
 * Returns the workspace folder the turn's environment details name, if any.
 */
export function userTurn(
  blocks: readonly Obj[],
  key: string,
  base: Base,
  pending: Pending[],
  sink: LineSink,
): TurnFacts {
  let cwd: string | null = null;
  let open: { key: string; callId: string; name: string; parts: string[] } | null = null;
  const close = () => {
    if (open) result(open.key, open.callId, open.name, open.parts.join("\n"), null, base, sink);
    open = null;
  };
  blocks.forEach((b, j) => {
    const k = `${key}#${j}`;
    if (b["type"] === "tool_result") {
      close();
      const callId = str(b["tool_use_id"]) ?? "";
      const name = take(pending, callId, null)?.name ?? "";
      const flag = typeof b["is_error"] === "boolean" ? b["is_error"] : null;
      result(k, callId, name, contentText(b["content"]), flag, base, sink);
      return;
    }
    if (b["type"] !== "text") return; // an image the person attached
    const text = str(b["text"]) ?? "";
    if (text.startsWith("<environment_details>")) {
      cwd ??= WORKSPACE.exec(text)?.[1]?.trim() ?? null;
      close();
      return;
    }
    const header = HEADER.exec(text);
    if (header && !/^ completed$/.test(header[2]!)) {
      close();
      const name = header[1]!;
      const call = take(pending, null, name);
      open = { key: k, callId: call?.callId ?? `${k}:unpaired`, name, parts: [] };
      const rest = text.slice(header[0].length).trim();
      if (rest) open.parts.push(rest);
      return;
    }
    // The person's new instructions after a resume end the result they were appended to.
    if (/^\s*(<task>|New instructions for task continuation:)/.test(text)) close();
    if (open) {
      open.parts.push(text);
      if (REPLIED.has(open.name)) words(REPLY, text, k, base, sink);
      return;
    }
    words(WORDS, text, k, base, sink, true);
  });
  close();
  return { cwd };
}

/** The person's words in the text, each a prompt; without any, the text is the harness's (when `harness`). */
function words(pattern: RegExp, text: string, key: string, base: Base, sink: LineSink, harness = false): void {
  let n = 0;
  for (const m of text.matchAll(pattern)) {
    const said = m[2]!.trim();
    if (said === "") continue;
    sink.out.push({ kind: "message", ...base, key: `${key}:${n++}`, role: "user", text: said, typed: true });
  }
  if (n === 0 && harness && text.trim() !== "")
    sink.out.push({ kind: "message", ...base, key, role: "user", text: text.trim(), typed: false });
}

function take(pending: Pending[], callId: string | null, name: string | null): Pending | undefined {
  const i = pending.findIndex((p) => (callId !== null ? p.callId === callId : p.name === name));
  return i === -1 ? undefined : pending.splice(i, 1)[0];
}

const EXIT = /Exit code: (-?\d+)/;
const FAILED = [
  /^The tool execution failed with the following error:/,
  /Command execution was not successful/,
  /^The user denied this operation/,
  /^<error>/,
];

/** Roo Code states a failure in the result's words: its error wrapper, a denial, or a command's exit code. */
function result(
  key: string,
  callId: string,
  name: string,
  output: string,
  flag: boolean | null,
  base: Base,
  sink: LineSink,
): void {
  const code = EXIT.exec(output);
  const exitCode = code ? Number(code[1]) : null;
  const failed =
    flag === true || FAILED.some((r) => r.test(output.trimStart())) || (exitCode !== null && exitCode !== 0);
  sink.out.push({
    kind: "tool_result",
    ...base,
    key,
    callId,
    output,
    isError: failed,
    exitCode,
    ...(name ? { meta: { tool: name } } : {}),
  });
}
