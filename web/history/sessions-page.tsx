/**
 * Sessions of every agent, latest first, filtered by agent, project and time. The filters live in the URL
 * (`/sessions?provider=codex&since=7d`), so a filtered list can be bookmarked.
 */

import type { JSX } from "preact";
import { useState } from "preact/hooks";
import { historyPath } from "../../src/app/catalog/routes.ts";
import type { SessionsAnswer } from "../../src/live/history-types.ts";
import { useJson } from "../api.ts";
import { Link, navigate, paths } from "../router.tsx";
import { Empty, Failure } from "../ui/empty.tsx";
import { firstLine, shortTime } from "../ui/format.ts";
import { GoneBadge, ProviderBadge, SessionCounts, sessionName } from "./session-meta.tsx";

const SINCE = [
  { value: "", label: "any time" },
  { value: "1d", label: "last day" },
  { value: "7d", label: "last 7 days" },
  { value: "30d", label: "last 30 days" },
  { value: "365d", label: "last year" },
];
const PAGE = 50;

/** The part of the overview answer this page reads. */
interface AgentsInIndex {
  by_agent: Array<{ provider: string; sessions: number }>;
  week_usage?: {
    since: string;
    cost: number;
    unpriced_calls: number;
    top: { session_id: string; title: string | null; provider: string; cost: number } | null;
  } | null;
}

/** This week's spend and its most expensive session, one line (as `cairn` prints it), leading to the Usage view. */
function WeekSpend(props: { week: NonNullable<AgentsInIndex["week_usage"]> }): JSX.Element {
  const { week } = props;
  return (
    <p class="week-spend">
      <Link href={paths.usage()}>This week</Link> (from {week.since}): ${week.cost.toFixed(2)}
      {week.unpriced_calls > 0 && ` (+${week.unpriced_calls} calls not priced)`}
      {week.top && (
        <>
          {"; most: "}
          <Link href={paths.timeline(week.top.session_id)}>{firstLine(week.top.title ?? week.top.provider, 60)}</Link> $
          {week.top.cost.toFixed(2)}
        </>
      )}
    </p>
  );
}

export function SessionsPage(props: { query: URLSearchParams }): JSX.Element {
  const q = props.query;
  const provider = q.get("provider") ?? "";
  const project = q.get("project") ?? "";
  const since = q.get("since") ?? "";
  const all = q.get("all") === "1";
  const limit = Number(q.get("limit") ?? PAGE) || PAGE;
  const [projectDraft, setProjectDraft] = useState(project);
  const loaded = useJson<SessionsAnswer>(
    historyPath("sessions", {
      provider: provider ? [provider] : undefined,
      project: project ? [project] : undefined,
      since,
      all,
      limit,
    }),
  );
  // The agents with sessions in this index (cairn reads many more; a list of all of them would mostly be empty).
  const overview = useJson<AgentsInIndex>(historyPath("overview"));
  const agents = (overview.data?.by_agent ?? []).map((a) => a.provider);
  if (provider && !agents.includes(provider)) agents.push(provider);
  const go = (change: Record<string, string | undefined>): void =>
    navigate(paths.sessions({ provider, project, since, all: all ? "1" : undefined, ...change, limit: undefined }), {
      replace: true,
    });

  return (
    <div class="page">
      <header class="page-head">
        <h1>Sessions</h1>
        <form
          class="filters"
          aria-label="Filter sessions"
          onSubmit={(e) => {
            e.preventDefault();
            go({ project: projectDraft.trim() || undefined });
          }}
        >
          <label>
            Agent{" "}
            <select
              id="filter-provider"
              value={provider}
              onChange={(e) => go({ provider: e.currentTarget.value || undefined })}
            >
              <option value="">all agents</option>
              {agents.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </select>
          </label>
          <label>
            Project{" "}
            <input
              id="filter-project"
              type="search"
              value={projectDraft}
              placeholder="name"
              onInput={(e) => setProjectDraft(e.currentTarget.value)}
              onChange={(e) => go({ project: e.currentTarget.value.trim() || undefined })}
            />
          </label>
          <label>
            Time{" "}
            <select id="filter-since" value={since} onChange={(e) => go({ since: e.currentTarget.value || undefined })}>
              {SINCE.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </select>
          </label>
          <label class="check">
            <input
              type="checkbox"
              checked={all}
              onChange={(e) => go({ all: e.currentTarget.checked ? "1" : undefined })}
            />{" "}
            subagents too
          </label>
        </form>
        {overview.data?.week_usage && <WeekSpend week={overview.data.week_usage} />}
      </header>
      {loaded.state === "error" && <Failure error={loaded.error} what="sessions" />}
      {loaded.data && loaded.data.length === 0 && (
        <Empty title={provider || project || since ? "No session matches these filters" : "No sessions indexed yet"}>
          {provider || project || since ? (
            <p>
              Loosen a filter, or <Link href={paths.sessions()}>show every session</Link>.
            </p>
          ) : (
            <p>
              Run <code>cairn index</code> in a terminal to read your agents' transcripts, then reload this page.
            </p>
          )}
        </Empty>
      )}
      {loaded.data && loaded.data.length > 0 && (
        <ul class="cards sessions" aria-busy={loaded.state === "loading"}>
          {loaded.data.map((s) => (
            <li key={s.session_id} class="card session-card">
              <div class="card-line">
                <ProviderBadge provider={s.provider} />
                <Link class="card-title" href={paths.timeline(s.session_id)}>
                  {firstLine(sessionName(s), 120)}
                </Link>
                {s.source_gone && <GoneBadge />}
              </div>
              <div class="card-line meta">
                <span>{shortTime(s.updated_at)}</span>
                {s.project && <span>{s.project}</span>}
                {s.kind !== "main" && <span class="tag">{s.kind}</span>}
                <SessionCounts session={s} />
                <Link href={paths.conversation(s.session_id)} class="quiet-link">
                  Conversation
                </Link>
                <Link href={paths.brief(s.session_id)} class="quiet-link">
                  Resume brief
                </Link>
              </div>
            </li>
          ))}
        </ul>
      )}
      {loaded.data && loaded.data.length >= limit && (
        <p class="more">
          <Link
            href={paths.sessions({ provider, project, since, all: all ? "1" : undefined, limit: String(limit + PAGE) })}
          >
            Show more sessions
          </Link>
        </p>
      )}
    </div>
  );
}
