/**
 * The scripted conversation every agent goes through, and the fake model's brain that plays it. The brain is
 * stateless: each request carries the whole conversation, so the next step is found from the latest prompt's task
 * marker and the number of tool calls made since that prompt.
 */
import { join } from "node:path";
import type { Conversation, Reply, ToolCallReply, ToolSpec } from "./types.ts";

export type Step =
  | { kind: "shell"; command: string }
  | { kind: "read"; file: string }
  | { kind: "edit"; file: string; old: string; new: string }
  | { kind: "write"; file: string; content: string }
  | { kind: "subagent"; description: string; prompt: string }
  | { kind: "say"; text: string };

/** Input tokens reported to make an agent think its context is full. */
const FULL_CONTEXT = 900_000;

export type Intent = Exclude<Step["kind"], "say">;

export const MATH_JS = "function add(a, b) {\n  return a - b;\n}\n\nmodule.exports = { add };\n";
export const TEST_JS =
  'const { add } = require("./math.js");\n\nconst got = add(2, 2);\nif (got !== 4) {\n  console.error("FAIL add(2, 2) = " + got + ", expected 4");\n  process.exit(1);\n}\nconsole.log("PASS add(2, 2) = 4");\n';

/** The prompts the harness types, in order; `resume` says the CLI's own continue/resume carries it. */
export const PROMPTS = {
  A: "TASK-A: `node test.js` fails. Run it, fix math.js, write NOTES.md, and ask a helper to count the lines of math.js.",
  B: "TASK-B: list the files of the project.",
  C: "TASK-C: run the test once more.",
  /** A branch the user takes instead of TASK-C (pi's fork): a read that fails, an inline script and a commit. */
  D: "TASK-D: show missing.txt, print add(2, 3) with node, and commit the work.",
} as const;
export const SUB_PROMPT = "TASK-SUB: count the lines of math.js and report the number.";

export const TASKS: Record<string, Step[]> = {
  A: [
    { kind: "shell", command: "node test.js" },
    { kind: "read", file: "math.js" },
    // Fails: the file has no such text.
    { kind: "edit", file: "math.js", old: "return subtract(a, b);", new: "return a + b;" },
    { kind: "edit", file: "math.js", old: "return a - b;", new: "return a + b;" },
    { kind: "write", file: "NOTES.md", content: "add() subtracted instead of adding; fixed in math.js.\n" },
    { kind: "shell", command: "node test.js" },
    { kind: "subagent", description: "Count math.js lines", prompt: SUB_PROMPT },
    { kind: "say", text: "Fixed add() in math.js; `node test.js` passes and NOTES.md explains the fix." },
  ],
  B: [
    { kind: "shell", command: "ls" },
    { kind: "say", text: "The project has math.js, test.js and NOTES.md." },
  ],
  C: [
    { kind: "shell", command: "node test.js" },
    { kind: "say", text: "The test still passes." },
  ],
  D: [
    // Fails: there is no such file (`cat` exits 1).
    { kind: "shell", command: "cat missing.txt" },
    { kind: "shell", command: `node -e 'console.log(require("./math.js").add(2, 3))'` },
    { kind: "shell", command: 'git add -A && git commit -m "Fix add() in math.js"' },
    { kind: "say", text: "missing.txt does not exist; add(2, 3) prints 5, and the fix is committed." },
  ],
  SUB: [
    { kind: "shell", command: "wc -l math.js" },
    { kind: "say", text: "math.js has 5 lines." },
  ],
};

export const SUMMARY =
  "<summary>\n1. Primary request: fix the failing test (`node test.js`).\n2. add() in math.js subtracted; it now adds. NOTES.md explains the fix. The test passes.\n3. Files: math.js, test.js, NOTES.md.\n</summary>\n<state_snapshot><overall_goal>Fix the failing add test.</overall_goal></state_snapshot>";

/** What an agent adapter can tell the brain about its CLI. */
export interface AgentScript {
  /** Preferred tool names per intent, tried before the common names. */
  tools?: Partial<Record<Intent, string[]>>;
  /** Whether the agent has a subagent tool to exercise. */
  subagents: boolean;
  /** Encodes a step in a way only this agent needs (Codex's freeform `apply_patch`); null: the generic way. */
  encode?(step: Step, conv: Conversation, dir: string): ToolCallReply | null;
  /**
   * The task whose final reply reports a context nearly full, for agents that compact on their own token count
   * (Codex's `model_auto_compact_token_limit`).
   */
  compactAfter?: string;
  /** The task whose every reply reports a context nearly full (Gemini CLI compresses before its next request). */
  compactDuring?: string;
  /** Answers a request that is not the scripted conversation (titles, classifiers, summaries); null: not one. */
  side?(conv: Conversation, path: string, body: unknown): Reply | null;
  /** The task whose request after its first tool call is answered "overloaded" once before the real reply. */
  overloadOnce?: string;
}

const COMMON_NAMES: Record<Intent, string[]> = {
  shell: ["Bash", "exec_command", "shell_command", "run_shell_command", "shell", "bash", "Execute", "execute_command"],
  read: ["Read", "read_file", "read", "view", "ReadFile", "Read file"],
  edit: ["Edit", "replace", "edit", "str_replace", "edit_file", "Edit file"],
  write: ["Write", "write_file", "write", "create", "Create", "write_to_file"],
  subagent: ["Agent", "Task", "task", "agent", "spawn_agent", "invoke_agent"],
};

const PROP_NAMES: Record<string, string[]> = {
  command: ["command", "cmd", "commandLine", "script"],
  path: ["file_path", "absolute_path", "path", "filePath", "file", "filename"],
  old: ["old_string", "oldText", "old_str", "oldString", "old_text", "search"],
  new: ["new_string", "newText", "new_str", "newString", "new_text", "replace"],
  content: ["content", "contents", "file_text", "text"],
  prompt: ["prompt", "task", "message", "instructions", "query", "objective"],
  description: ["description", "summary", "title"],
};

const COMPACT_RE =
  /create a (detailed )?summary of the conversation|summari[sz]e (the|this) (conversation|session)|context checkpoint compaction|<state_snapshot>|compress(ed|ion)? (the )?(chat|conversation|history)|conversation summary/i;

export function playScript(conv: Conversation, agent: AgentScript, dir: string, path: string, body: unknown): Reply {
  const side = agent.side?.(conv, path, body);
  if (side) return side;
  const lastUser = [...conv.msgs].reverse().find((m) => m.role === "user");
  if ((lastUser && COMPACT_RE.test(lastUser.text)) || COMPACT_RE.test(conv.system.slice(0, 4000))) {
    if (!lastUser || !/TASK-[A-Z]+:/.test(lastUser.text) || COMPACT_RE.test(lastUser.text)) return { text: SUMMARY };
  }
  let at = -1;
  let task: string | undefined;
  conv.msgs.forEach((m, i) => {
    const hit = m.role === "user" ? /TASK-([A-Z]+):/.exec(m.text) : null;
    if (hit?.[1] && TASKS[hit[1]]) {
      at = i;
      task = hit[1];
    }
  });
  if (task === undefined || conv.tools.length === 0) {
    // A side request: a summary when it asks for one, else the short answer titles and labels want.
    const asks = `${conv.system.slice(0, 2000)}\n${lastUser?.text.slice(-4000) ?? ""}`;
    return { text: /summar/i.test(asks) ? SUMMARY : "Fix the failing add test" };
  }
  // A subagent step needs an agent that has one and offers its tool in this request.
  const steps = TASKS[task]!.filter(
    (s) => s.kind !== "subagent" || (agent.subagents && findTool(conv, agent, "subagent") !== undefined),
  );
  const calls = conv.msgs.slice(at + 1).reduce((n, m) => n + (m.role === "assistant" ? m.calls : 0), 0);
  if (agent.overloadOnce === task && calls === 1) {
    const { overloadOnce: _once, ...rest } = agent;
    return { ...playScript(conv, rest, dir, path, body), overloaded: true };
  }
  const toolSteps = steps.filter((s) => s.kind !== "say");
  const step = toolSteps[calls];
  if (step === undefined) {
    const say = steps.find((s) => s.kind === "say");
    const tokens = agent.compactAfter === task || agent.compactDuring === task ? FULL_CONTEXT : undefined;
    return { text: say?.kind === "say" ? say.text : "Done.", ...(tokens ? { tokens } : {}) };
  }
  const call = encodeStep(step, conv, agent, dir);
  return agent.compactDuring === task ? { call, tokens: FULL_CONTEXT } : { call };
}

export function findTool(conv: Conversation, agent: AgentScript, intent: Intent): ToolSpec | undefined {
  for (const name of [...(agent.tools?.[intent] ?? []), ...COMMON_NAMES[intent]]) {
    const t = conv.tools.find((x) => x.name === name);
    if (t) return t;
  }
  return undefined;
}

function encodeStep(step: Step, conv: Conversation, agent: AgentScript, dir: string): ToolCallReply {
  const custom = agent.encode?.(step, conv, dir);
  if (custom) return custom;
  if (step.kind === "say") throw new Error("a say step is not a tool call");
  const tool = findTool(conv, agent, step.kind);
  if (!tool) {
    if (step.kind === "read") return encodeStep({ kind: "shell", command: `cat ${step.file}` }, conv, agent, dir);
    throw new Error(`no tool for '${step.kind}' among ${conv.tools.map((t) => t.name).join(", ")}`);
  }
  const args: Record<string, unknown> = {};
  const set = (role: string, value: unknown) => {
    const prop = PROP_NAMES[role]!.find((p) => p in tool.props);
    if (prop) args[prop] = value;
  };
  switch (step.kind) {
    case "shell":
      set("command", tool.props["command"]?.["type"] === "array" ? ["bash", "-lc", step.command] : step.command);
      set("description", `Run ${step.command}`);
      break;
    case "read":
      set("path", join(dir, step.file));
      break;
    case "edit": {
      set("path", join(dir, step.file));
      set("old", step.old);
      set("new", step.new);
      // Edits given as a list of replacements (pi's `edits: [{oldText, newText}]`).
      const list = Object.entries(tool.props).find(([, p]) => p["type"] === "array" && isObj(p["items"]));
      if (!PROP_NAMES["old"]!.some((p) => p in tool.props) && list) {
        const item = list[1]["items"] as { properties?: Record<string, unknown> };
        const names = Object.keys(item.properties ?? {});
        const pick = (role: string) => PROP_NAMES[role]!.find((p) => names.includes(p)) ?? role;
        args[list[0]] = [{ [pick("old")]: step.old, [pick("new")]: step.new }];
      }
      break;
    }
    case "write":
      set("path", join(dir, step.file));
      set("content", step.content);
      break;
    case "subagent":
      set("prompt", step.prompt);
      set("description", step.description);
      break;
  }
  fillRequired(tool, args);
  return { name: tool.name, args };
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Required parameters the script has no meaning for get a plausible value (an enum's first choice, a word). */
function fillRequired(tool: ToolSpec, args: Record<string, unknown>): void {
  for (const name of tool.required) {
    if (name in args) continue;
    const schema = tool.props[name] ?? {};
    const choices = schema["enum"];
    if (Array.isArray(choices) && choices.length > 0) args[name] = choices[0];
    // Which kind of subagent: the general one every agent that has subagents offers, by the name its tool lists.
    else if (/^(subagent_type|agent_type|agent_name)$/.test(name))
      args[name] = /^\s*- (general[\w-]*):/m.exec(tool.description ?? "")?.[1] ?? "general-purpose";
    else if (schema["type"] === "boolean") args[name] = false;
    else if (schema["type"] === "number" || schema["type"] === "integer") args[name] = 1;
    else if (schema["type"] === "array") args[name] = [];
    else if (schema["type"] === "object") args[name] = {};
    else args[name] = "scripted step";
  }
}
