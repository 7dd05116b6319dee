/**
 * The resume brief for a session (`/s/ID/brief`): the markdown the engine wrote, every `[e:ID]` a link to the
 * event it cites, with the budget, the size and whether it validated; `?at=EVENT` builds it as of an event.
 */
import type { JSX } from "preact";
import type { BriefAnswer } from "../../src/live/history-types.ts";
import { useJson } from "../api.ts";
import { Link, paths, withQuery } from "../router.tsx";
import { Failure } from "../ui/empty.tsx";
import { shortId } from "../ui/format.ts";
import { Markdown } from "../ui/markdown.tsx";

export function BriefPage(props: { sessionId: string; query: URLSearchParams }): JSX.Element {
  const at = props.query.get("at") ?? undefined;
  const budget = props.query.get("budget") ?? undefined;
  const loaded = useJson<BriefAnswer>(
    withQuery(`/api/history/sessions/${encodeURIComponent(props.sessionId)}/brief`, { at, budget }),
  );
  return (
    <div class="page brief-page">
      <header class="page-head">
        <h1>Resume brief</h1>
        <p class="meta">
          for <Link href={paths.timeline(props.sessionId)}>session {shortId(props.sessionId)}</Link>
          {at && <span> as of event {shortId(at)}</span>}
        </p>
      </header>
      {loaded.state === "error" && <Failure error={loaded.error} what="the brief" />}
      {loaded.state === "loading" && (
        <p class="muted" aria-busy="true">
          Building the brief…
        </p>
      )}
      {loaded.data && (
        <>
          <p class="meta brief-facts">
            {loaded.data.tokens.toLocaleString("en")} tokens of a {loaded.data.budget_tokens.toLocaleString("en")}
            -token budget, from {loaded.data.original_tokens.toLocaleString("en")} (
            {Math.round(loaded.data.ratio * 100)}
            %) · {loaded.data.citations.length} events cited · must-keep facts kept{" "}
            {Math.round(loaded.data.validation.coverage * 100)}%{loaded.data.validation.ok ? "" : " (did not validate)"}
            {loaded.data.budget_note && <span> · {loaded.data.budget_note}</span>}
          </p>
          <article class="brief">
            <Markdown text={loaded.data.text} breaks />
          </article>
        </>
      )}
    </div>
  );
}
