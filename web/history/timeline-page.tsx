/**
 * A session's timeline (`/s/ID`, `/s/ID?at=EVENT` to open at an event): the session's facts, a windowed list of
 * its events, a box to jump to any event by id, the resume brief, and for a pi session that this server can run,
 * a button to continue it live.
 */

import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { historyPath } from "../../src/app/catalog/routes.ts";
import type { EventDetailAnswer, SessionSummary, TimelineAnswer } from "../../src/live/history-types.ts";
import { getJson } from "../api.ts";
import { Link, navigate, paths, withQuery } from "../router.tsx";
import { Empty, Failure } from "../ui/empty.tsx";
import { ContinueLive } from "./continue-live.tsx";
import { SessionHeading } from "./session-meta.tsx";
import { TimelineList } from "./timeline-list.tsx";
import { useWindowedRows } from "./windowed-rows.ts";

const WINDOW = 400;

function JumpToEvent(): JSX.Element {
  const [value, setValue] = useState("");
  const [error, setError] = useState("");
  const submit = (event: JSX.TargetedSubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const id = value
      .trim()
      .replace(/^\[?e:/, "")
      .replace(/\]$/, "");
    if (!id) return;
    getJson<EventDetailAnswer>(historyPath("eventChain", { event_id: id })).then(
      (a) => {
        setError("");
        navigate(paths.timeline(a.event.session_id, a.event.event_id));
      },
      (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
    );
  };
  return (
    <form class="jump" onSubmit={submit} aria-label="Jump to an event">
      <label for="jump-box">Go to event</label>
      <input
        id="jump-box"
        type="search"
        placeholder="id or prefix"
        value={value}
        onInput={(e) => setValue(e.currentTarget.value)}
      />
      <button type="submit">Go</button>
      {error && (
        <span class="bad" role="alert">
          {error}
        </span>
      )}
    </form>
  );
}

export function TimelinePage(props: { sessionId: string; query: URLSearchParams }): JSX.Element {
  const at = props.query.get("at") ?? undefined;
  const all = props.query.get("all") === "1";
  const common = { session: props.sessionId, limit: WINDOW, all };
  const first = historyPath("timeline", at ? { ...common, around: at } : { ...common, from: 0 });
  const [selected, setSelected] = useState(-1);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [focusIndex, setFocusIndex] = useState<number | undefined>(undefined);
  const timeline = useWindowedRows<TimelineAnswer["rows"][number], TimelineAnswer, { to: number } | { from: number }>(
    first,
    (cursor) => historyPath("timeline", { ...common, ...("to" in cursor ? { to: cursor.to } : { from: cursor.from }) }),
    (answer) => {
      if (!at) return;
      const index = answer.rows.findIndex((r) => r.event_id === at || r.event_id.startsWith(at));
      if (index >= 0) {
        setSelected(index);
        setFocusIndex(index);
        setExpanded(new Set([answer.rows[index]!.event_id]));
      }
    },
  );
  // Rows prepended above the selected one move it down.
  useEffect(() => {
    const added = timeline.prepended.count;
    if (added > 0) setSelected((s) => (s >= 0 ? s + added : s));
  }, [timeline.prepended.n]);
  const session: SessionSummary | undefined = timeline.answer?.session;

  if (timeline.error && !session) {
    return (
      <div class="page">
        <Failure error={timeline.error} what={`session ${props.sessionId}`} />
        <p class="more">
          <Link href={paths.sessions()}>All sessions</Link>
        </p>
      </div>
    );
  }
  return (
    <div class="page timeline-page">
      {session ? (
        <SessionHeading session={session}>
          <div class="actions page-actions">
            <Link class="button-link" href={paths.conversation(session.session_id, at)}>
              Read as a conversation
            </Link>
            <Link class="button-link" href={paths.brief(session.session_id)}>
              Resume brief
            </Link>
            <ContinueLive session={session} />
            <Link
              class="quiet-link"
              href={withQuery(`/s/${encodeURIComponent(session.session_id)}`, { all: all ? undefined : "1", at })}
            >
              {all ? "Fold file actions and commands" : "Show file actions and commands"}
            </Link>
            <JumpToEvent />
          </div>
        </SessionHeading>
      ) : (
        <header class="page-head" aria-busy="true">
          <h1>Session {props.sessionId}</h1>
        </header>
      )}
      {timeline.error && <p class="bad">{timeline.error.message}</p>}
      {session && timeline.rows.length === 0 && (
        <Empty title="This session has no events">
          <p>Its transcript had nothing cairn could read. `cairn inspect` on the file says why.</p>
        </Empty>
      )}
      <TimelineList
        rows={timeline.rows}
        selected={selected}
        onSelect={setSelected}
        expanded={expanded}
        onToggle={(id) => {
          const next = new Set(expanded);
          if (next.has(id)) next.delete(id);
          else next.add(id);
          setExpanded(next);
        }}
        focusIndex={focusIndex}
        onNearStart={timeline.loadEarlier}
        onNearEnd={timeline.loadLater}
        prepended={timeline.prepended}
      />
    </div>
  );
}
