/**
 * The page's two model-backed requests, POST (they send the user's history to the model the server was configured
 * with, so they are state-changing requests: Origin and authentication are checked before this runs):
 *
 *   POST /api/ask          {question, session?, budget?}  the checked answer (`cairn ask --json`'s shape)
 *   POST /api/ask/resume   {session, budget?}             the AI brief, or why the deterministic one stands
 */
import { z } from "zod";
import type { AskService } from "../../app/ask-service.ts";
import { CairnError } from "../../common/errors.ts";
import { errorAnswer, HttpError } from "./http-error.ts";

const AskBody = z.object({
  question: z.string().trim().min(1).max(2000),
  session: z.string().trim().min(1).max(200).optional(),
  budget: z.number().int().min(200).max(64_000).optional(),
});
const ResumeBody = z.object({
  session: z.string().trim().min(1).max(200),
  budget: z.number().int().min(200).max(100_000).optional(),
});

function parse<T>(schema: z.ZodType<T>, body: string): T {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new HttpError(400, "usage", "the body is not JSON");
  }
  const result = schema.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new HttpError(400, "usage", `${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`);
  }
  return result.data;
}

export async function answerAsk(
  service: AskService | null,
  path: string,
  body: string,
  signal: AbortSignal,
): Promise<{ status: number; body: unknown }> {
  if (service === null) throw new HttpError(404, "no_index", "this server has no index to ask");
  try {
    if (path === "/api/ask") {
      const req = parse(AskBody, body);
      return { status: 200, body: await service.ask({ ...req, signal }) };
    }
    if (path === "/api/ask/resume") {
      const req = parse(ResumeBody, body);
      const r = await service.resume({ ...req, signal });
      const { brief, ...ai } = r;
      return {
        status: 200,
        body: { ...ai, session_id: brief.session_id, brief_tokens: brief.tokens, must_keep: brief.must_keep.length },
      };
    }
  } catch (error) {
    if (error instanceof HttpError || !(error instanceof CairnError)) throw error;
    return errorAnswer(error);
  }
  throw new HttpError(404, "not_found", `no such request: ${path}`);
}
