/**
 * The brief for a person: the goal and the latest request as the headline, then each section that has something
 * in it, folded but for the ones that say what is open; every citation a link to its event that shows what the
 * event says when pointed at or focused.
 */

import type { JSX } from "preact";
import { useId } from "preact/hooks";
import type { BriefQuote, BriefView, CitePreview } from "../../src/live/history-types.ts";
import { Link, paths } from "../router.tsx";
import { Markdown } from "../ui/markdown.tsx";

/** Sections a person resuming the work reads first: open requests, failures, checks, files, the plan. */
const OPEN = /^(Where it stands|Requests not done|Failures|Checks|Files|Plan)/;
const SHOWN_CITES = 3;

export function BriefViewBlock(props: { view: BriefView }): JSX.Element {
  const v = props.view;
  return (
    <div class="brief-view">
      <section class="brief-headline" aria-label="Goal and latest request">
        {v.goal && <Quote label="Goal" quote={v.goal} cited={v.cited} />}
        {v.latest && <Quote label="Latest request" quote={v.latest} cited={v.cited} />}
        {!v.goal && !v.latest && <p class="muted">No request was typed in this session.</p>}
      </section>
      {v.sections.map((s) => (
        <details class="brief-section" open={OPEN.test(s.title)} key={s.title}>
          <summary>
            <h2>{s.title}</h2>
            <span class="count">{s.items.length}</span>
          </summary>
          <ul>
            {s.items.map((item, i) => (
              <li key={`${i}`} class={`brief-item ${item.field}`}>
                <Markdown text={item.text} breaks class="brief-text" />
                <Cites ids={item.cites} cited={v.cited} />
              </li>
            ))}
          </ul>
        </details>
      ))}
    </div>
  );
}

function Quote(props: { label: string; quote: BriefQuote; cited: BriefView["cited"] }): JSX.Element {
  return (
    <div class="brief-quote">
      <h2>
        {props.label} <span class="muted">(turn {props.quote.turn})</span>
      </h2>
      <blockquote>
        <Markdown text={props.quote.text} breaks />
      </blockquote>
      <Cites ids={props.quote.cites} cited={props.cited} />
    </div>
  );
}

/** The newest few citations of an item (its sources come oldest first), each with its preview. */
function Cites(props: { ids: string[]; cited: BriefView["cited"] }): JSX.Element | null {
  const ids = [...new Set(props.ids)];
  if (ids.length === 0) return null;
  const shown = ids.slice(-SHOWN_CITES);
  return (
    <span class="cites">
      {ids.length > shown.length && <span class="muted">{ids.length - shown.length} more · </span>}
      {shown.map((id) => (
        <Cite key={id} id={id} preview={props.cited[id]} />
      ))}
    </span>
  );
}

function Cite(props: { id: string; preview: CitePreview | undefined }): JSX.Element {
  const p = props.preview;
  // The same event may be cited by several items: each tooltip needs an id of its own.
  const tip = useId();
  return (
    <span class="cite-wrap">
      <Link href={paths.event(props.id)} class="cite" aria-describedby={p ? tip : undefined}>
        {p ? `@${p.ordinal}` : `e:${props.id.slice(0, 8)}`}
      </Link>
      {p && (
        <span class="cite-tip" role="tooltip" id={tip}>
          <span class="cite-kind">
            {p.event_type.replace(/_/g, " ")}
            {p.timestamp ? ` · ${p.timestamp.slice(0, 16).replace("T", " ")}` : ""}
          </span>
          {p.text}
        </span>
      )}
    </span>
  );
}
