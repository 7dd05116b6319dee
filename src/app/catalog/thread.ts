/** `thread`: one work thread by id or unique prefix. */
import type { Thread } from "../../threads/types.ts";
import { question } from "./question.ts";

export const thread = question({
  name: "thread",
  summary: "one work thread by id or unique prefix",
  id: "thread",
  async answer(ctx, req: { thread: string }): Promise<Thread> {
    const { resolveThread } = await import("../../threads/index.ts");
    return resolveThread(ctx.store(), req.thread);
  },
});
