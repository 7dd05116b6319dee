/** `conversation`: a session read as a conversation (the page's conversation view). */
import type { Conversation } from "../conversation.ts";
import type { Input } from "./inputs.ts";
import { question } from "./question.ts";

export const conversation = question({
  name: "conversation",
  summary: "a session as a conversation: messages, tool calls with their results, subagents nested where they began",
  input: "conversation",
  id: "session",
  async answer(ctx, req: Input<"conversation">): Promise<Conversation> {
    const { conversation: build } = await import("../conversation.ts");
    return build(ctx.store(), req);
  },
});
