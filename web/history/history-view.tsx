/** Picks the history view for a route. */
import type { JSX } from "preact";
import type { Route } from "../router.tsx";
import { Empty } from "../ui/empty.tsx";
import { AskPage } from "./ask-page.tsx";
import { BriefPage } from "./brief-page.tsx";
import { ConversationPage } from "./conversation-page.tsx";
import { EventPage } from "./event-page.tsx";
import { SearchPage } from "./search-page.tsx";
import { SessionsPage } from "./sessions-page.tsx";
import { ThreadPage } from "./thread-page.tsx";
import { ThreadsPage } from "./threads-page.tsx";
import { TimelinePage } from "./timeline-page.tsx";
import { UsagePage } from "./usage-page.tsx";

export function HistoryView(props: { route: Exclude<Route, { name: "live" }> }): JSX.Element {
  const { route } = props;
  switch (route.name) {
    case "sessions":
      return <SessionsPage query={route.query} />;
    case "search":
      return <SearchPage query={route.query} />;
    case "timeline":
      return <TimelinePage key={route.sessionId} sessionId={route.sessionId} query={route.query} />;
    case "brief":
      return <BriefPage key={route.sessionId} sessionId={route.sessionId} query={route.query} />;
    case "conversation":
      return <ConversationPage key={route.sessionId} sessionId={route.sessionId} query={route.query} />;
    case "event":
      return <EventPage key={route.eventId} eventId={route.eventId} />;
    case "threads":
      return <ThreadsPage query={route.query} />;
    case "ask":
      return <AskPage query={route.query} />;
    case "usage":
      return <UsagePage query={route.query} />;
    case "thread":
      return <ThreadPage key={route.threadId} threadId={route.threadId} />;
    case "not_found":
      return (
        <Empty title="No such page">
          <p>{route.path} is not a view of this page. Use the links above.</p>
        </Empty>
      );
  }
}
