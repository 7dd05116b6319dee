/**
 * A session read as a conversation (`/s/ID/conversation`, `?at=EVENT` to open at any event of it): messages as
 * markdown, tool calls as cards with edits as diffs and output folded, failures marked, subagents nested where
 * they began, compactions as dividers, and a line where the day changes (in the reader's time zone).
 */
import type { JSX } from "preact";
import { useEffect } from "preact/hooks";
import { historyPath } from "../../src/app/catalog/routes.ts";
import type { ConversationAnswer, ConversationItemView } from "../../src/live/history-types.ts";
import { useJson } from "../api.ts";
import { Link, paths } from "../router.tsx";
import { Empty, Failure } from "../ui/empty.tsx";
import { anchorOf, ConversationItem } from "./conversation-item.tsx";
import { SessionHeading } from "./session-meta.tsx";

export function ConversationPage(props: { sessionId: string; query: URLSearchParams }): JSX.Element {
  const at = props.query.get("at") ?? undefined;
  const loaded = useJson<ConversationAnswer>(historyPath("conversation", { session: props.sessionId, at }));
  const focus = loaded.data?.focus ?? null;
  useEffect(() => {
    if (focus) document.getElementById(`e-${focus}`)?.scrollIntoView({ block: "center" });
  }, [focus]);
  if (loaded.state === "error") return <Failure error={loaded.error} what={`session ${props.sessionId}`} />;
  if (!loaded.data)
    return (
      <p class="muted page" aria-busy="true">
        Loading the conversation…
      </p>
    );
  const { session, items } = loaded.data;
  return (
    <div class="page conversation-page">
      <SessionHeading session={session}>
        <div class="actions page-actions">
          <Link class="button-link" href={paths.brief(session.session_id)}>
            Resume brief
          </Link>
          <Link href={paths.timeline(session.session_id, at)}>Timeline</Link>
        </div>
      </SessionHeading>
      {items.length === 0 && (
        <Empty title="This session has no events">
          <p>Its transcript had nothing cairn could read. `cairn inspect` on the file says why.</p>
        </Empty>
      )}
      <div class="conversation">{withDays(items, focus, session.session_id)}</div>
    </div>
  );
}

/** The items with a separator before the first item of each day. */
function withDays(items: readonly ConversationItemView[], focus: string | null, sessionId: string): JSX.Element[] {
  const out: JSX.Element[] = [];
  let day: string | null = null;
  for (const item of items) {
    const d = localDay(item.time);
    if (d !== null && d !== day) {
      out.push(
        <h2 class="conv-day" key={`day-${d}`}>
          <time dateTime={d}>{dayLabel(item.time!)}</time>
        </h2>,
      );
      day = d;
    }
    out.push(<ConversationItem key={anchorOf(item)} item={item} focus={focus} sessionId={sessionId} />);
  }
  return out;
}

function localDay(iso: string | null): string | null {
  if (!iso) return null;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return null;
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

function dayLabel(iso: string): string {
  return new Date(iso).toLocaleDateString("en", { weekday: "long", year: "numeric", month: "long", day: "numeric" });
}
