/**
 * One event (what a brief's [e:ID] cites): its session and position, its whole text, the chain it came from,
 * and its edges in and out, each a link when it points at an event or a session.
 */

import type { JSX } from "preact";
import { historyPath } from "../../src/app/catalog/routes.ts";
import type { EdgeView, EventDetailAnswer } from "../../src/live/history-types.ts";
import { useJson } from "../api.ts";
import { Link, paths } from "../router.tsx";
import { Empty, Failure } from "../ui/empty.tsx";
import { firstLine, shortTime } from "../ui/format.ts";
import { EventBody } from "./event-body.tsx";
import { GoneBadge, ProviderBadge } from "./session-meta.tsx";

function EdgeList(props: { title: string; edges: EdgeView[] }): JSX.Element | null {
  if (props.edges.length === 0) return null;
  return (
    <section class="edges" aria-label={props.title}>
      <h2>{props.title}</h2>
      <ul>
        {props.edges.map((edge) => (
          <li key={`${edge.edge_type}:${edge.other}`}>
            <span class="edge-type">{edge.edge_type}</span>{" "}
            {edge.other_kind === "event" ? (
              <Link href={paths.event(edge.other)}>
                {edge.other_type?.replace("_", " ")} {edge.other}
              </Link>
            ) : edge.other_kind === "session" ? (
              <Link href={paths.timeline(edge.other)}>session {edge.other}</Link>
            ) : (
              <span class="entity">{edge.other_type ?? edge.other_kind}</span>
            )}{" "}
            <span class="muted">{firstLine(edge.display, 100)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function EventPage(props: { eventId: string }): JSX.Element {
  const loaded = useJson<EventDetailAnswer>(historyPath("eventChain", { event_id: props.eventId }));
  if (loaded.state === "error") {
    return (
      <div class="page">
        <Failure error={loaded.error} what={`event ${props.eventId}`} />
      </div>
    );
  }
  if (!loaded.data) return <div class="page" aria-busy="true" />;
  const { event: e, session, chain, edges } = loaded.data;
  const facts: [string, string | JSX.Element | null][] = [
    [
      "session",
      <Link href={paths.timeline(e.session_id, e.event_id)}>
        {session.title ? firstLine(session.title, 80) : session.session_short}
      </Link>,
    ],
    [
      "position",
      <span>
        @{e.ordinal} (turn {e.turn}) ·{" "}
        <Link href={paths.conversation(e.session_id, e.event_id)}>in the conversation</Link>
      </span>,
    ],
    ["time", shortTime(e.timestamp)],
    ["type", `${e.event_type.replace("_", " ")}${e.role ? ` (${e.role})` : ""}`],
    ["tool", e.tool_name],
    ["command", e.command],
    ["file", e.file_path],
    ["status", e.status],
    ["source", `${e.source_file}:${e.source_line}`],
  ];
  return (
    <div class="page" data-event-id={e.event_id}>
      <header class="page-head">
        <h1>
          {e.event_type.replace("_", " ")} <span class="mono muted">{e.event_id}</span>
        </h1>
        <p class="meta">
          <ProviderBadge provider={e.provider} /> {session.project} {session.source_gone && <GoneBadge />}
        </p>
      </header>
      <dl class="facts">
        {facts
          .filter(([, v]) => v !== null && v !== "")
          .map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
      </dl>
      <section class="event-text" aria-label="Text">
        <EventBody event={e} lines={60} />
      </section>
      {chain.length > 0 && (
        <section class="chain" aria-label="Evidence chain">
          <h2>Came from</h2>
          <ol>
            {chain.map((c) => (
              <li key={c.event_id}>
                <Link href={paths.event(c.event_id)}>
                  {c.event_type.replace("_", " ")} @{c.ordinal}
                </Link>
                {c.status && <span class="muted"> ({c.status})</span>}{" "}
                <span class="muted">{firstLine(c.text, 120)}</span>
              </li>
            ))}
          </ol>
        </section>
      )}
      <EdgeList title="Edges out" edges={edges.out} />
      <EdgeList title="Edges in" edges={edges.in} />
      {edges.out.length === 0 && edges.in.length === 0 && chain.length === 0 && (
        <Empty title="No edges">
          <p>This event stands alone: nothing was derived from it and it answers nothing.</p>
        </Empty>
      )}
    </div>
  );
}
