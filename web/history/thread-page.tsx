/** One work thread (`/t/ID`): its sessions with a tag each, what joins them, and their merged timeline. */

import type { JSX } from "preact";
import { useMemo, useState } from "preact/hooks";
import { historyPath } from "../../src/app/catalog/routes.ts";
import type { ThreadTimelineAnswer } from "../../src/live/history-types.ts";
import { Link, paths } from "../router.tsx";
import { Failure } from "../ui/empty.tsx";
import { firstLine, plural, shortId } from "../ui/format.ts";
import { ProviderBadge } from "./session-meta.tsx";
import { TimelineList } from "./timeline-list.tsx";
import { useWindowedRows } from "./windowed-rows.ts";

const WINDOW = 400;

export function ThreadPage(props: { threadId: string }): JSX.Element {
  const [selected, setSelected] = useState(-1);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const timeline = useWindowedRows<ThreadTimelineAnswer["rows"][number], ThreadTimelineAnswer, { start_row: number }>(
    historyPath("threadTimeline", { thread: props.threadId, start_row: 0, limit: WINDOW }),
    (cursor) => historyPath("threadTimeline", { thread: props.threadId, start_row: cursor.start_row, limit: WINDOW }),
  );
  const thread = timeline.answer?.thread;
  const tags = useMemo(() => new Map(thread?.sessions.map((s, i) => [s.session_id, `s${i + 1}`]) ?? []), [thread]);
  if (timeline.error && !thread)
    return (
      <div class="page">
        <Failure error={timeline.error} what={`thread ${props.threadId}`} />
      </div>
    );
  return (
    <div class="page timeline-page">
      <header class="page-head">
        <h1>
          Thread <span class="mono">{shortId(props.threadId, 12)}</span>{" "}
          {thread && <span class={`tag label-${thread.label}`}>{thread.label}</span>}
        </h1>
        {thread && (
          <>
            <p class="meta">
              {plural(thread.sessions.length, "session")} · {thread.providers.join(", ")} · {thread.projects.join(", ")}{" "}
              · {thread.label_reason}
            </p>
            <ul class="legend" aria-label="Sessions in this thread">
              {thread.sessions.map((s) => (
                <li key={s.session_id}>
                  <span class="row-tag">{tags.get(s.session_id)}</span> <ProviderBadge provider={s.provider} />{" "}
                  <Link href={paths.timeline(s.session_id)}>{firstLine(s.title, 80) || s.session_short}</Link>
                  {s.folded_into && (
                    <span class="muted">
                      {" "}
                      ({s.kind} of {tags.get(s.folded_into)})
                    </span>
                  )}
                </li>
              ))}
            </ul>
            <p class="meta">{thread.shares}</p>
          </>
        )}
      </header>
      <TimelineList
        rows={timeline.rows}
        sessionTag={(row) => tags.get(row.session_id) ?? "?"}
        selected={selected}
        onSelect={setSelected}
        expanded={expanded}
        onToggle={(id) => {
          const next = new Set(expanded);
          if (next.has(id)) next.delete(id);
          else next.add(id);
          setExpanded(next);
        }}
        onNearEnd={timeline.loadLater}
      />
    </div>
  );
}
