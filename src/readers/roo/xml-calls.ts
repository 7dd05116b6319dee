/**
 * Roo Code before native tool calling wrote each tool call into the reply's text as XML: `<read_file><args>…</args>
 * </read_file>`, `<execute_command><command>…</command></execute_command>`. Only its own tool names open a call (as
 * its parser has it), each parameter is a child element, and a call runs to its closing tag, or to the end of the
 * text when the reply was cut off inside it (Roo runs such a call with the parameters it got).
 */

/** The tools Roo Code (and its parser) knows by name. */
export const ROO_TOOLS = new Set([
  "read_file",
  "simple_read_file",
  "write_to_file",
  "apply_diff",
  "insert_content",
  "search_and_replace",
  "search_replace",
  "edit_file",
  "apply_patch",
  "search_files",
  "list_files",
  "list_code_definition_names",
  "codebase_search",
  "execute_command",
  "browser_action",
  "use_mcp_tool",
  "access_mcp_resource",
  "ask_followup_question",
  "attempt_completion",
  "switch_mode",
  "new_task",
  "fetch_instructions",
  "update_todo_list",
  "generate_image",
  "run_slash_command",
]);

export interface XmlCall {
  name: string;
  input: Record<string, string>;
}

const OPEN = /<([a-z_]+)>/g;
const PARAM = /<([a-z_]+)>([\s\S]*?)<\/\1>/g;
const THINKING = /<thinking>([\s\S]*?)<\/thinking>/g;

/** The reply's words (without its calls and `<thinking>`), its thinking, and its calls in order. */
export function splitReply(text: string): { words: string; thinking: string; calls: XmlCall[] } {
  const calls: XmlCall[] = [];
  const kept: string[] = [];
  let from = 0;
  for (const m of text.matchAll(OPEN)) {
    const name = m[1]!;
    if (m.index < from || !ROO_TOOLS.has(name)) continue;
    const found = text.indexOf(`</${name}>`, m.index + m[0].length);
    const close = found === -1 ? text.length : found;
    calls.push({ name, input: paramsOf(text.slice(m.index + m[0].length, close)) });
    kept.push(text.slice(from, m.index));
    from = found === -1 ? close : close + name.length + 3;
  }
  kept.push(text.slice(from));
  const thoughts: string[] = [];
  const words = kept
    .join("")
    .replace(THINKING, (_all, t: string) => {
      thoughts.push(t.trim());
      return "";
    })
    .trim();
  return { words, thinking: thoughts.join("\n"), calls };
}

function paramsOf(body: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of body.matchAll(PARAM)) out[m[1]!] ??= m[2]!.replace(/^\n/, "").replace(/\n$/, "");
  // `read_file` names its files inside `args`: the first one is the call's path.
  const args = out["args"];
  if (args !== undefined && out["path"] === undefined) {
    const path = /<path>([\s\S]*?)<\/path>/.exec(args)?.[1]?.trim();
    if (path) out["path"] = path;
  }
  return out;
}
