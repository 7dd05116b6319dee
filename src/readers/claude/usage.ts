/**
 * The tokens of Claude Code's API calls. Every line of one message repeats its `usage`, and while the reply streams
 * the output count grows: each line whose usage differs from the one before is recorded, and the report keeps the
 * largest copy of a call. A call is the message id with the request id, which names it across the files it is
 * copied into (a resumed or forked session's file repeats its messages); Claude Code on Bedrock writes no request
 * id, and then copies count once within one session only.
 */
import { arr, type Obj, obj, str } from "../json.ts";
import type { RawRecord, SourceLine } from "../types.ts";
import { callTotal, count, usageRecord } from "../usage.ts";
import type { ClaudeMessage, ClaudeState } from "./state.ts";

export function readUsage(
  s: ClaudeState,
  m: ClaudeMessage,
  o: Obj,
  line: SourceLine,
  ts: string | null,
  out: RawRecord[],
): void {
  const message = obj(o["message"]) ?? {};
  const usage = obj(message["usage"]);
  // Without both counts the line is no API call's record (ccusage skips such lines too).
  if (!usage || typeof usage["input_tokens"] !== "number" || typeof usage["output_tokens"] !== "number") return;
  const msgId = str(message["id"]);
  const requestId = str(o["requestId"]);
  const session = str(o["sessionId"]) ?? s.sessionId;
  const call = msgId === undefined ? null : requestId ? `${msgId}/${requestId}` : `${session}/${msgId}`;
  const model = str(message["model"]);
  const costUSD = typeof o["costUSD"] === "number" ? o["costUSD"] : null;
  const common = {
    sidechain: o["isSidechain"] === true,
    fast: str(usage["speed"]) === "fast",
  };
  const tokens = {
    ...tokensOf(usage),
    ...common,
    call,
    cost: costUSD,
    model: model === "<synthetic>" ? null : (model ?? null),
  };
  const total = callTotal(tokens);
  if (m.usageTotal !== undefined && m.usageTotal === total) return;
  m.usageTotal = total;
  const main = usageRecord({ line: line.line, ts, key: `${line.line}#u` }, tokens);
  if (main) out.push(main);
  // An advisor model consulted within the call records its own tokens, under its own model.
  (arr(usage["iterations"]) ?? []).forEach((it, n) => {
    const iteration = obj(it);
    if (iteration?.["type"] !== "advisor_message") return;
    const advisor = usageRecord(
      { line: line.line, ts, key: `${line.line}#u${n}` },
      {
        ...tokensOf(iteration!),
        ...common,
        call: call === null ? null : `${call}:advisor:${n}`,
        cost: null,
        model: str(iteration["model"]) ?? null,
      },
    );
    if (advisor) out.push(advisor);
  });
}

/** The four counts; the cache writes split by how long they are kept when the line says so. */
function tokensOf(usage: Obj) {
  const split = obj(usage["cache_creation"]);
  return {
    input: count(usage["input_tokens"]),
    output: count(usage["output_tokens"]),
    cacheRead: count(usage["cache_read_input_tokens"]),
    cacheWrite: split ? count(split["ephemeral_5m_input_tokens"]) : count(usage["cache_creation_input_tokens"]),
    cacheWrite1h: split ? count(split["ephemeral_1h_input_tokens"]) : 0,
    reasoning: 0,
  };
}
