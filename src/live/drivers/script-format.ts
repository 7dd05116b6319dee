/**
 * The scripted driver's input: a JSON script (documented in docs/live-protocol.md, examples in examples/), or a
 * recorded pi session file replayed as a script. Pure: text in, a validated script or a readable error out.
 */
import { z } from "zod";
import { errorMessage } from "../../common/errors.ts";

const question = z
  .object({
    question: z.string().min(1),
    header: z.string().optional(),
    options: z.array(z.object({ label: z.string().min(1), description: z.string().optional() }).strict()).min(1),
    multiSelect: z.boolean().optional(),
  })
  .strict();

const step = z.discriminatedUnion("type", [
  /** One assistant message, streamed in chunks. */
  z
    .object({
      type: z.literal("text"),
      text: z.string(),
      chunkSize: z.number().int().min(1).optional(),
      chunkDelayMs: z.number().int().min(0).optional(),
    })
    .strict(),
  /** A tool call; with `permission` it waits for a viewport's allow or deny first. */
  z
    .object({
      type: z.literal("tool"),
      name: z.string().min(1),
      id: z.string().min(1).optional(),
      input: z.unknown().optional(),
      permission: z.boolean().optional(),
      title: z.string().optional(),
      defaultToNo: z.boolean().optional(),
      output: z.unknown().optional(),
      isError: z.boolean().optional(),
      durationMs: z.number().int().min(0).optional(),
    })
    .strict(),
  /** Questions for the user (an `ask_user` tool call); the answers become the tool's output. */
  z
    .object({ type: z.literal("question"), id: z.string().min(1).optional(), questions: z.array(question).min(1) })
    .strict(),
  /** A non-fatal error shown to viewports; the turn goes on. */
  z
    .object({ type: z.literal("error"), code: z.string().min(1), message: z.string(), fatal: z.boolean().optional() })
    .strict(),
  /** Ends the turn as failed, as if the model call had thrown. */
  z.object({ type: z.literal("fail"), message: z.string() }).strict(),
  z.object({ type: z.literal("wait"), ms: z.number().int().min(0).max(600_000) }).strict(),
]);

export const scriptSchema = z
  .object({
    version: z.literal(1),
    description: z.string().optional(),
    sessionId: z.string().min(1).optional(),
    model: z.string().min(1).optional(),
    /** Characters per chunk and the pause between chunks for text steps that do not set their own. */
    chunkSize: z.number().int().min(1).optional(),
    chunkDelayMs: z.number().int().min(0).optional(),
    /** What happens after the last turn: start again (`cycle`), repeat it (`last`) or say so (`stop`). */
    afterLastTurn: z.enum(["cycle", "last", "stop"]).optional(),
    turns: z.array(z.object({ steps: z.array(step) }).strict()).min(1),
  })
  .strict();

export type Script = z.infer<typeof scriptSchema>;
export type ScriptStep = Script["turns"][number]["steps"][number];

export type ParseScriptResult = { ok: true; script: Script } | { ok: false; error: string };

/** Accepts a JSON script or a pi session file (JSONL whose first line is the session header). */
export function parseScript(text: string, source = "script"): ParseScriptResult {
  const firstLine = text.slice(0, text.indexOf("\n") === -1 ? text.length : text.indexOf("\n")).trim();
  if (firstLine.startsWith("{") && /"type"\s*:\s*"session"/.test(firstLine)) return scriptFromPiSession(text, source);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      error: `${source}: not valid JSON (${errorMessage(error)})`,
    };
  }
  const parsed = scriptSchema.safeParse(value);
  if (parsed.success) return { ok: true, script: parsed.data };
  const issue = parsed.error.issues[0];
  return { ok: false, error: `${source}: ${issue?.path.join(".") || "(root)"}: ${issue?.message ?? "invalid"}` };
}

interface PiContentBlock {
  type?: string;
  text?: string;
  id?: string;
  name?: string;
  arguments?: unknown;
}

/** Tools a recorded session may replay without asking (they only read). */
const READ_ONLY_TOOLS = new Set(["read", "grep", "find", "ls"]);

/**
 * Turns a recorded pi session into a script: each user message starts a turn; assistant text becomes text
 * steps and tool calls become tool steps (asking permission for anything but the read-only tools) with the
 * recorded result as output. Lines that are not messages are skipped.
 */
export function scriptFromPiSession(text: string, source = "session"): ParseScriptResult {
  const turns: Script["turns"] = [];
  const results = new Map<string, { output: string; isError: boolean }>();
  const messages: Array<{ role: string; content: unknown; toolCallId?: string; isError?: boolean }> = [];
  let sessionId: string | undefined;
  let lineNo = 0;
  for (const line of text.split("\n")) {
    lineNo++;
    if (line.trim() === "") continue;
    let entry: {
      type?: string;
      id?: string;
      message?: { role?: string; content?: unknown; toolCallId?: string; isError?: boolean };
    };
    try {
      entry = JSON.parse(line);
    } catch {
      return { ok: false, error: `${source}:${lineNo}: not valid JSON` };
    }
    if (entry.type === "session" && typeof entry.id === "string") sessionId = entry.id;
    const m = entry.message;
    if (entry.type !== "message" || !m || typeof m.role !== "string") continue;
    messages.push({
      role: m.role,
      content: m.content,
      ...(m.toolCallId ? { toolCallId: m.toolCallId } : {}),
      isError: m.isError === true,
    });
  }
  const textOf = (content: unknown): string =>
    typeof content === "string"
      ? content
      : Array.isArray(content)
        ? (content as PiContentBlock[])
            .filter((b) => b.type === "text" && typeof b.text === "string")
            .map((b) => b.text)
            .join("")
        : "";
  for (const m of messages) {
    if (m.role === "toolResult" && m.toolCallId)
      results.set(m.toolCallId, { output: textOf(m.content), isError: m.isError === true });
  }
  for (const m of messages) {
    if (m.role === "user") turns.push({ steps: [] });
    if (m.role !== "assistant" || !Array.isArray(m.content)) continue;
    if (turns.length === 0) turns.push({ steps: [] });
    const steps = turns[turns.length - 1]!.steps;
    for (const block of m.content as PiContentBlock[]) {
      if (block.type === "text" && block.text) steps.push({ type: "text", text: block.text });
      if (block.type === "toolCall" && block.name) {
        const result = block.id ? results.get(block.id) : undefined;
        steps.push({
          type: "tool",
          name: block.name,
          input: block.arguments ?? {},
          permission: !READ_ONLY_TOOLS.has(block.name),
          output: result?.output ?? "",
          isError: result?.isError ?? false,
        });
      }
    }
  }
  if (turns.length === 0) return { ok: false, error: `${source}: no user or assistant messages to replay` };
  return { ok: true, script: { version: 1, ...(sessionId ? { sessionId } : {}), model: "recorded", turns } };
}
