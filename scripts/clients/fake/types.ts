/** The fake model's view of a request, whatever the provider's wire format: who said what, and which tools exist. */
export interface Msg {
  role: "user" | "assistant" | "tool" | "system";
  text: string;
  /** Tool calls an assistant message made. */
  calls: number;
}

export interface ToolSpec {
  name: string;
  /** Property names of the tool's parameter schema, and the schemas themselves (to fill required fields). */
  props: Record<string, Record<string, unknown>>;
  required: string[];
  /** What the tool says of itself (some list the subagent types they accept). */
  description?: string;
  /** A freeform tool (OpenAI Responses `custom`) takes one raw string, not JSON arguments. */
  freeform?: boolean;
}

export interface Conversation {
  system: string;
  msgs: Msg[];
  tools: ToolSpec[];
  model: string;
  stream: boolean;
}

export interface ToolCallReply {
  name: string;
  /**
   * The group a tool is listed in (OpenAI Responses `namespace` tools: Codex lists an MCP server's tools under
   * `mcp__<server>`), when the call must name it.
   */
  namespace?: string;
  /** JSON arguments, or the raw input of a freeform tool. */
  args: Record<string, unknown> | string;
}

export interface Reply {
  text?: string;
  call?: ToolCallReply;
  /** Input tokens to report (agents that compact on their own count need a large one at the right moment). */
  tokens?: number;
  /**
   * Answer this request with an "overloaded" error instead, once: the agent's own retry then writes what a real
   * outage leaves in its transcript (Claude Code's `system` `api_error` records), the reply itself comes on retry.
   */
  overloaded?: boolean;
}

/** One provider's wire protocol: how to read a request and how to answer it. */
export interface Protocol {
  name: string;
  /** Whether this protocol serves the request at `path`. */
  matches(method: string, path: string): boolean;
  parse(body: unknown, path: string): Conversation;
  /** Writes the reply, streamed or whole as the request asked. */
  respond(res: import("node:http").ServerResponse, reply: Reply, conv: Conversation, path: string): void;
}

export function schemaProps(schema: unknown): { props: ToolSpec["props"]; required: string[] } {
  const s = (schema ?? {}) as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
  return { props: s.properties ?? {}, required: Array.isArray(s.required) ? s.required : [] };
}

/** Plain text of provider content: a string, or blocks carrying `text`. */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((b) => (typeof b === "string" ? b : typeof b?.text === "string" ? b.text : ""))
    .filter((t) => t !== "")
    .join("\n");
}

let counter = 0;
export function nextId(prefix: string): string {
  counter++;
  return `${prefix}${Date.now().toString(36)}${counter.toString(36).padStart(4, "0")}`;
}
