/**
 * The working set's names: code identifiers the session has been using, ranked by how recently and how often
 * they came up, each attributed to the file it was last seen in. File contents rarely fit a budget; their
 * vocabulary does, and it tells the next agent what to look for and where (resume-method §4.9: missing
 * identifiers of old, large files were every method's weak spot; a re-read is the cure, this says what to re-read).
 */
import { toolInputOfEvent } from "../topology/tool-call-input.ts";
import type { SessionEvent } from "../topology/types.ts";
import { identifiersIn } from "./entities.ts";
import { isCarriedBrief } from "./notebook.ts";
import { isTypedUserMessage } from "./requests.ts";
import type { Timeline } from "./timeline.ts";
import { isDerived } from "./timeline.ts";

/** Recency: weight exp(−age/τ) with τ = N/3, over a floor that keeps names the session kept returning to. */
const FLOOR = 0.1;
const TAU_DIVISOR = 3;

export interface RankedSymbol {
  name: string;
  score: number;
  /**
   * The file it belongs to: the last source file (not a document) whose read or edit mentioned it, else the last
   * file of any kind, else null when only the conversation did.
   */
  file: string | null;
  /** The last event that mentioned it. */
  cite: string;
}

/** Reading a name in a request or an edit says more about what comes next than seeing it in a long output. */
function kindWeight(e: SessionEvent): number {
  if (isTypedUserMessage(e)) return 2;
  if (e.event_type === "tool_call") return /edit|write|patch|replace/i.test(e.tool_name ?? "") ? 1.5 : 1;
  if (e.event_type === "assistant_message") return 1.2;
  if (e.event_type === "resume_point") return 1.2;
  return 1;
}

/** Argument names of file and shell tools, which the searchable text of every call spells out. */
const TOOL_ARG_NAMES = new Set([
  "file_path",
  "old_string",
  "new_string",
  "replace_all",
  "oldText",
  "newText",
  "old_str",
  "new_str",
  "file_text",
  "view_range",
  "activeForm",
  "tool_use_id",
  "run_in_background",
  "max_output_tokens",
  "yield_time_ms",
  "session_id",
  "with_escalated_permissions",
]);

/**
 * Words of the agents' own harness text: Claude Code's background-agent notice (`agentId`, `output_file`, the tool
 * it points to) and its usage trailer, and the tags it wraps errors in.
 */
const HARNESS_NAMES = new Set([
  "agentId",
  "output_file",
  "SendMessage",
  "tool_uses",
  "total_tokens",
  "duration_ms",
  "subagent_tokens",
  "tool_use_error",
]);

/** Tool names an MCP server gives its tools (`mcp__browser__click`): the harness's words, not the code's. */
const MCP_TOOL = /^mcp__/;
/**
 * A one-case segment with digits strewn through it (`acf40738160d880cf`, `toolu_mwvfu14b000e`) is an id or a hash;
 * names people choose put their digits in one place (`sha256`, `base64ToUint8Array` has humps).
 */
const HASHY = /^(?=(?:.*\d){3})(?=.*\d+[a-z]+\d)(?:[a-z\d]{8,}|[A-Z\d]{8,})$/;
/** Minifiers' short names (`DuW0i`): too short to be a name someone chose, shaped like none. */
const FRAGMENT = /^(?=.*\d)(?=.*[a-z][A-Z]).{4,6}$/;
/**
 * Ids the agents' APIs and stores mint (`call_mwurqzuu000e`, `ses_df19e2725ffeUp9KwVjgaLx8J2`): a short lower-case
 * prefix and a random tail, or a tail whose digits come in four or more runs, which no chosen name does.
 */
const MINTED_ID =
  /^(?:call|ses|msg|prt|toolu|tool|req|run|chatcmpl|resp|fc|item|file|asst|thread|task)_[A-Za-z\d]{8,}$/;
const DIGIT_RUNS = /\d+/g;
const minted = (name: string) => MINTED_ID.test(name) || (name.match(DIGIT_RUNS)?.length ?? 0) >= 4;

function noise(name: string, tools: ReadonlySet<string>): boolean {
  if (TOOL_ARG_NAMES.has(name) || HARNESS_NAMES.has(name) || MCP_TOOL.test(name) || FRAGMENT.test(name)) return true;
  if (tools.has(looseName(name)) || minted(name)) return true;
  return name.split(/[._]/).some((part) => HASHY.test(part));
}

/** Markup tags with an underscore or dash (`<state_snapshot>`, `<system-reminder>`) are a harness's, not code's. */
const HARNESS_TAG = /<\/?[a-z]+(?:[_-][a-z]+)+>/g;
/** A line this long with hardly a space is minified code or a source map: its names were not chosen by anyone. */
const MINIFIED_LINE = 400;

/** An escaped line break or tab in JSON or a quoted string (`\nAuthorization`) glues its `n` or `t` to the next word. */
const ESCAPE = /\\[ntr]/g;

function scannable(text: string): string {
  const lines = text.replace(HARNESS_TAG, " ").replace(ESCAPE, " ").split("\n");
  return lines.filter((l) => l.length < MINIFIED_LINE || l.split(" ").length * 40 > l.length).join("\n");
}

/** A tool call's text is its input as `key: value` lines: the keys are the tool's parameters, not the code's names. */
const INPUT_KEY = /^[A-Za-z_][\w]*: /gm;
const withoutInputKeys = (text: string) => text.replace(INPUT_KEY, "");

/**
 * The keys of a JSON reply are the harness's words when the call was not a read, a search or a shell command:
 * an edit's `{"success":true,"diffLines":[…]}`, a helper agent's `{"finishReason":…,"usage":…}`. The values stay:
 * they hold the code. A file read or `cat package.json` shows the code's own keys and keeps them.
 */
const JSON_KEY = /"[A-Za-z_$][\w$]*"\s*:/g;
const KEEPS_KEYS = new Set(["read", "search", "shell"]);

/** The names of the tools the session called, loosely (`read_file` and `ReadFile` are one): the harness's words. */
function toolNames(events: readonly SessionEvent[]): Set<string> {
  const out = new Set<string>();
  for (const e of events) if (e.event_type === "tool_call" && e.tool_name) out.add(looseName(e.tool_name));
  return out;
}

/** The text of an event as names are read from it: a call without its parameter names, a reply without its keys. */
function namesText(e: SessionEvent, calls: ReadonlyMap<string, SessionEvent>): string {
  const text = e.text.length > MAX_SCAN ? `${e.text.slice(0, MAX_SCAN / 2)}\n${e.text.slice(-MAX_SCAN / 2)}` : e.text;
  if (e.event_type === "tool_call") return withoutInputKeys(text);
  if (e.event_type !== "tool_result" || !e.parent_event_id) return text;
  const call = calls.get(e.parent_event_id);
  const kind = call ? toolInputOfEvent(call)?.kind : undefined;
  return kind === undefined || KEEPS_KEYS.has(kind) ? text : text.replace(JSON_KEY, " ");
}

/** Documents mention names; source files define them. */
const DOCUMENT = /\.(md|mdx|markdown|txt|rst|adoc|log)$/i;

/** Outputs beyond this many characters are read at their head and tail only: a name buried in a 200 kB log is noise. */
const MAX_SCAN = 60_000;

/** The user's latest requests that are read for the files they point at. */
const POINTING_REQUESTS = 2;
/** Names in a file the user's latest requests point at ("truncatedtext.ts is broken, investigate") count this much more. */
const POINTED = 3;
/** A file's name as people type it: no folder, no extension, no separators, lower case. */
const looseName = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, "");

function pointedFiles(primary: readonly SessionEvent[]): Set<string> {
  const asked = primary
    .filter(isTypedUserMessage)
    .slice(-POINTING_REQUESTS)
    .map((e) => looseName(e.text.slice(0, 4000)))
    .join(" ");
  const out = new Set<string>();
  if (asked === "") return out;
  for (const e of primary) {
    if (!e.file_path || out.has(e.file_path)) continue;
    const name = looseName((e.file_path.split("/").pop() ?? "").replace(/\.[^.]+$/, ""));
    if (name.length >= 5 && asked.includes(name)) out.add(e.file_path);
  }
  return out;
}

/**
 * What a removed name's score keeps (eval:resume: 0.5 lifts recall at 2 % and 3 % on pi and Claude and lowers it at
 * no budget; dropping such names lowered Claude's at 3 %, as the next turns do sometimes put a name back).
 */
const REMOVED_WEIGHT = 0.5;

/** The names an edit's old text has and its new text does not. */
function removedBy(e: SessionEvent): Set<string> {
  const out = new Set<string>();
  if (e.event_type !== "tool_call") return out;
  const input = toolInputOfEvent(e);
  if (input?.kind !== "edit" || !input.edits) return out;
  const before = new Set<string>();
  const after = new Set<string>();
  for (const x of input.edits) {
    // A call cut off before its new text says nothing of what it removed.
    if (x.new === undefined) return out;
    identifiersIn(x.old, before);
    identifiersIn(x.new, after);
  }
  for (const n of before) if (!after.has(n)) out.add(n);
  return out;
}

export function rankSymbols(t: Timeline): RankedSymbol[] {
  // What the harness injected (environment, skills, instructions) names the harness's things, not the code's; a
  // brief handed over from another session names that session's, cited there.
  const primary = t.events.filter(
    (e) => !isDerived(e) && e.text !== "" && e.meta["harness"] !== true && !isCarriedBrief(e),
  );
  const n = primary.length;
  const tau = Math.max(1, n / TAU_DIVISOR);
  const out = new Map<string, RankedSymbol>();
  const pointed = pointedFiles(primary);
  const tools = toolNames(t.events);
  const calls = new Map(t.events.filter((e) => e.event_type === "tool_call").map((e) => [e.event_id, e]));
  // Names an edit took out of the code and nothing mentioned since: gone from the file, so no later edit can use them.
  const removed = new Set<string>();
  primary.forEach((e, i) => {
    const gone = removedBy(e);
    const names = identifiersIn(scannable(namesText(e, calls)));
    if (names.size === 0) return;
    // Old mentions keep a floor of weight: names the session kept coming back to matter even when not lately.
    const w =
      kindWeight(e) * (FLOOR + Math.exp(-(n - 1 - i) / tau)) * (e.file_path && pointed.has(e.file_path) ? POINTED : 1);
    const file = e.file_path;
    const code = file !== null && !DOCUMENT.test(file);
    for (const name of names) {
      if (noise(name, tools)) continue;
      if (gone.has(name)) removed.add(name);
      else removed.delete(name);
      const s = out.get(name);
      if (s) {
        s.score += w;
        s.cite = e.event_id;
        if (file && (code || s.file === null || DOCUMENT.test(s.file))) s.file = file;
      } else out.set(name, { name, score: w, file, cite: e.event_id });
    }
  });
  for (const name of removed) {
    const s = out.get(name);
    if (s) s.score *= REMOVED_WEIGHT;
  }
  // Highest score first; the name breaks ties so the order never depends on map order.
  return [...out.values()].sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : 1));
}
