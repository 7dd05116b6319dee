/** `session`: one session by id or unique prefix (a prefix of a session and its subagents names the session). */
import { resolveSessionId } from "../../store/resolve.ts";
import type { SessionRow } from "../../store/types.ts";
import type { Input } from "./inputs.ts";
import { question } from "./question.ts";

export const session = question({
  name: "session",
  summary: "one session by id or unique prefix",
  input: "session",
  id: "session",
  answer: (ctx, req: Input<"session">): SessionRow => resolveSessionId(ctx.store(), req.session),
});
