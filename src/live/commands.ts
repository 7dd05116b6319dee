/** zod schemas for what viewports send. Anything that fails them is answered with `nack invalid`. */
import { z } from "zod";
import type { ClientCommand, PingMessage } from "./protocol.ts";

export const MAX_MESSAGE_CHARS = 100_000;

const clientMsgId = z.string().min(1).max(128);
const epoch = z.string().min(1).max(64);

const promptResponse = z.discriminatedUnion("kind", [
  z
    .object({ kind: z.literal("tool_permission"), allow: z.boolean(), message: z.string().max(2_000).optional() })
    .strict(),
  z
    .object({
      kind: z.literal("ask_user_question"),
      answers: z.record(z.string().max(2_000), z.string().max(10_000)),
    })
    .strict(),
]);

export const clientCommandSchema = z.discriminatedUnion("type", [
  z
    .object({
      type: z.literal("subscribe"),
      clientMsgId,
      afterSeq: z.number().int().min(0).optional(),
      epoch: epoch.optional(),
    })
    .strict(),
  z
    .object({
      type: z.literal("send_message"),
      clientMsgId,
      text: z.string().min(1).max(MAX_MESSAGE_CHARS),
      expectEpoch: epoch.optional(),
    })
    .strict(),
  z
    .object({
      type: z.literal("respond_prompt"),
      clientMsgId,
      promptId: z.string().min(1).max(128),
      response: promptResponse,
      expectEpoch: epoch.optional(),
    })
    .strict(),
  z.object({ type: z.literal("interrupt"), clientMsgId, expectEpoch: epoch.optional() }).strict(),
  z
    .object({
      type: z.literal("clear_session"),
      clientMsgId,
      expectEpoch: epoch.optional(),
      reason: z.string().max(200).optional(),
    })
    .strict(),
  z
    .object({
      type: z.literal("new_session"),
      clientMsgId,
      prompt: z.string().min(1).max(MAX_MESSAGE_CHARS).optional(),
    })
    .strict(),
  z
    .object({
      type: z.literal("resume_session"),
      clientMsgId,
      sessionId: z.string().min(1).max(200),
      prompt: z.string().min(1).max(MAX_MESSAGE_CHARS).optional(),
    })
    .strict(),
]);

const pingSchema = z.object({ type: z.literal("ping"), t: z.number().optional() }).strict();

// A compile-time check that the schema and the hand-written union agree.
type Parsed = z.infer<typeof clientCommandSchema>;
const _sameShape: [Parsed] extends [ClientCommand] ? ([ClientCommand] extends [Parsed] ? true : false) : false = true;
void _sameShape;

export type ParseCommandResult =
  | { ok: true; command: ClientCommand }
  | { ok: false; clientMsgId: string | null; message: string };

export type ParseMessageResult = ParseCommandResult | { ok: true; ping: PingMessage };

/** Parses one WebSocket frame: a command, or the page's heartbeat `ping`. Never throws. */
export function parseClientMessage(raw: string): ParseMessageResult {
  const value = parseJson(raw);
  if (value === undefined) return { ok: false, clientMsgId: null, message: "malformed JSON" };
  const ping = pingSchema.safeParse(value);
  if (ping.success) return { ok: true, ping: ping.data as PingMessage };
  return validate(value);
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

/** Parses one raw frame. Never throws: bad input comes back as data with a readable reason. */
export function parseClientCommand(raw: string): ParseCommandResult {
  const value = parseJson(raw);
  if (value === undefined) return { ok: false, clientMsgId: null, message: "malformed JSON" };
  return validate(value);
}

function validate(value: unknown): ParseCommandResult {
  const result = clientCommandSchema.safeParse(value);
  if (result.success) return { ok: true, command: result.data as ClientCommand };
  const id =
    typeof value === "object" && value !== null && typeof (value as { clientMsgId?: unknown }).clientMsgId === "string"
      ? ((value as { clientMsgId: string }).clientMsgId.slice(0, 128) as string)
      : null;
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
  return { ok: false, clientMsgId: id, message: `invalid command: ${where}${issue?.message ?? "unknown shape"}` };
}
