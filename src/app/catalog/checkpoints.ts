/** `checkpoints`: a session's checkpoints (steps) in order. */
import { type Checkpoint, listCheckpoints } from "../../resume/checkpoints.ts";
import { resolveSessionId } from "../../store/resolve.ts";
import { question } from "./question.ts";

export interface CheckpointsAnswer {
  session_id: string;
  checkpoints: Checkpoint[];
}

export const checkpoints = question({
  name: "checkpoints",
  summary: "a session's checkpoints and their steps",
  id: "session",
  answer(ctx, req: { session: string }): CheckpointsAnswer {
    const store = ctx.store();
    const s = resolveSessionId(store, req.session);
    return { session_id: s.session_id, checkpoints: listCheckpoints(store, s.session_id) };
  },
});
