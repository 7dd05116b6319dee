/** `sessions`: indexed sessions, newest first, with their counts (`cairn sessions`, the page's list). */
import { parseTime } from "../../search/query.ts";
import type { SessionFilter, SessionRow } from "../../store/types.ts";
import type { Provider, SessionKind } from "../../topology/types.ts";
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
    // Subagent and exec sessions belong to the session that started them.
    if (!req.all) filter.kinds = ["main", "fork"] satisfies SessionKind[];
    return ctx.store().listSessions(filter);
  },
});
