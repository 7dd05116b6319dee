/** `sessions`: indexed sessions, newest first, with their counts (`cairn sessions`, the page's list). */
import { parseTime } from "../../search/query.ts";
import type { SessionFilter, SessionRow } from "../../store/types.ts";
import { type Provider, WORK_KINDS } from "../../topology/types.ts";
import type { Input } from "./inputs.ts";
import { question } from "./question.ts";

export type SessionsRequest = Input<"sessions">;

export const sessions = question({
  name: "sessions",
  summary: "indexed sessions, newest first, with their counts",
  input: "sessions",
  answer(ctx, given: SessionsRequest | undefined): SessionRow[] {
    const req = given ?? {};
    const filter: SessionFilter = { limit: req.limit ?? 50 };
    if (req.provider?.length) filter.provider = req.provider as Provider[];
    if (req.project?.length) filter.project = req.project;
    if (req.since !== undefined) filter.since = parseTime(req.since, ctx.now(), `since ${req.since}`);
    if (req.until !== undefined) filter.until = parseTime(req.until, ctx.now(), `until ${req.until}`, true);
    // The sessions of people's work, as the overview and "the latest session" count them (not subagents).
    if (!req.all) filter.kinds = [...WORK_KINDS];
    return ctx.store().listSessions(filter);
  },
});
