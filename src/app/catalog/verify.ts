/** `verify`: how a resumed session went: repeated failures, files read again that the brief held. */
import type { VerifyResult } from "../../resume/verify.ts";
import { resolveSessionId } from "../../store/resolve.ts";
import { question } from "./question.ts";

export const verify = question({
  name: "verify",
  summary: "whether a resumed session repeated a ledgered failure or re-read files the brief held",
  id: "session",
  async answer(ctx, req: { session: string; actions?: number }): Promise<VerifyResult> {
    const { verifyResumed } = await import("../../resume/verify.ts");
    const store = ctx.store();
    const s = resolveSessionId(store, req.session);
    return verifyResumed(store, { sessionId: s.session_id, ...(req.actions ? { actions: req.actions } : {}) });
  },
});
