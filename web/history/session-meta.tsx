/** A session's identity in one line: agent, project, title, time, counts, and whether its transcript is gone. */
import type { JSX } from "preact";
import type { SessionSummary } from "../../src/live/history-types.ts";
import { Link, paths } from "../router.tsx";
import { plural, shortTime } from "../ui/format.ts";

/**
 * What a session is called: its title (every index since titles were derived has one), else its agent and folder;
 * never its id, which stays in the line below the heading.
 */
export function sessionName(s: { title: string | null; provider: string; project: string | null }): string {
  return s.title?.trim() || `${s.provider} session${s.project ? ` in ${s.project}` : ""}`;
}

export function ProviderBadge(props: { provider: string }): JSX.Element {
  return (
    <span class="provider" data-provider={props.provider}>
      {props.provider}
    </span>
  );
}

export function GoneBadge(): JSX.Element {
  return (
    <span class="tag gone" title="The transcript file was deleted or moved; what was indexed is kept.">
      source gone
    </span>
  );
}

export function SessionCounts(props: { session: SessionSummary }): JSX.Element {
  const s = props.session;
  return (
    <span class="counts">
      {plural(s.prompt_count, "prompt")} · {plural(s.tool_count, "tool call")} ·{" "}
      <span class={s.error_count > 0 ? "bad" : undefined}>{plural(s.error_count, "error")}</span> ·{" "}
      {plural(s.test_count, "check")}
    </span>
  );
}

export function SessionHeading(props: {
  session: SessionSummary;
  children?: JSX.Element | JSX.Element[];
}): JSX.Element {
  const s = props.session;
  return (
    <header class="page-head">
      <h1>
        {sessionName(s)}
        {s.source_gone && <GoneBadge />}
      </h1>
      <p class="meta">
        <ProviderBadge provider={s.provider} /> {s.kind !== "main" && <span class="tag">{s.kind}</span>}{" "}
        {s.project && <span>{s.project}</span>} · {shortTime(s.started_at)} – {shortTime(s.updated_at)} ·{" "}
        <SessionCounts session={s} />
        {s.git_branch && <span> · branch {s.git_branch}</span>}
        {s.parent_session_id && (
          <span>
            {" "}
            · part of{" "}
            <Link href={paths.timeline(s.parent_session_id)}>{s.parent_session_short ?? s.parent_session_id}</Link>
          </span>
        )}
      </p>
      <p class="meta mono" title={s.source_file}>
        {s.session_id}
      </p>
      {props.children}
    </header>
  );
}
