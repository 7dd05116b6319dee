/** An event opened in place in a timeline: its text (folded), where it came from, and a link to its page. */

import type { JSX } from "preact";
import { historyPath } from "../../src/app/catalog/routes.ts";
import type { EventDetailAnswer } from "../../src/live/history-types.ts";
import { useJson } from "../api.ts";
import { Link, paths } from "../router.tsx";
import { EventBody } from "./event-body.tsx";

export function EventPreview(props: { eventId: string }): JSX.Element {
  const loaded = useJson<EventDetailAnswer>(historyPath("eventChain", { event_id: props.eventId }));
  return (
    <div class="row-detail">
      {loaded.state === "error" && <p class="bad">{loaded.error.message}</p>}
      {loaded.state === "loading" && <p class="muted">Loading…</p>}
      {loaded.state === "ready" && (
        <>
          <EventBody event={loaded.data.event} lines={12} />
          <p class="meta">
            <Link href={paths.event(props.eventId)}>Open event {props.eventId}</Link> ·{" "}
            <Link href={paths.conversation(loaded.data.event.session_id, props.eventId)}>in the conversation</Link>
            {loaded.data.event.tool_name && <span> · {loaded.data.event.tool_name}</span>}
            {loaded.data.event.status && <span> · {loaded.data.event.status}</span>}
          </p>
        </>
      )}
    </div>
  );
}
