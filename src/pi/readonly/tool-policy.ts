/**
 * Which tool calls read-only mode lets through (pure). pi's own writers are known by name: `write` and `edit`
 * change files, and `powershell` runs a shell the bash classifier cannot read, so all three are blocked. `bash` is
 * checked command by command elsewhere. Any other tool is judged by what it says about itself: pi 1.6 carries
 * MCP-style annotations, and a tool that declares `readOnlyHint: false` changes things, so it is blocked too. A tool
 * that says nothing (older pi, most extensions) is let through; read-only mode is a guardrail, not a boundary.
 */

/** pi's built-in tools that write files, or run commands that cannot be checked for writes. */
export const WRITING_TOOLS: ReadonlyMap<string, string> = new Map([
  ["write", "write changes files"],
  ["edit", "edit changes files"],
  ["powershell", "powershell commands cannot be checked for writes"],
]);

/** pi's built-in tools that only read. */
const READING_TOOLS: ReadonlySet<string> = new Set(["read", "grep", "find", "ls"]);

/** The part of a tool's self-description this policy reads (pi 1.6's `ToolAnnotations`; absent in 0.87). */
export interface ToolHints {
  readOnlyHint?: boolean;
}

export type ToolVerdict = { kind: "allow" } | { kind: "bash" } | { kind: "block"; reason: string };

/** `hints` is asked only for a tool that is neither pi's reader nor a known writer. */
export function readonlyToolVerdict(toolName: string, hints: () => ToolHints | undefined): ToolVerdict {
  if (toolName === "bash") return { kind: "bash" };
  const known = WRITING_TOOLS.get(toolName);
  if (known) return { kind: "block", reason: known };
  if (READING_TOOLS.has(toolName)) return { kind: "allow" };
  if (hints()?.readOnlyHint === false) return { kind: "block", reason: `${toolName} says it changes things` };
  return { kind: "allow" };
}

/** A tool's hints from a `getAllTools()` entry, read structurally because pi 0.87's `ToolInfo` has no annotations. */
export function toolHints(info: object | undefined): ToolHints | undefined {
  const annotations: unknown = info && "annotations" in info ? info.annotations : undefined;
  if (typeof annotations !== "object" || annotations === null) return undefined;
  const readOnlyHint: unknown = "readOnlyHint" in annotations ? annotations.readOnlyHint : undefined;
  return typeof readOnlyHint === "boolean" ? { readOnlyHint } : {};
}
