/**
 * A timeline as a windowed list: one line per event (time, position, what kind, a summary with tool output
 * collapsed to its first line and size), errors, checks, decisions and resume points marked by colour, glyph
 * and word; derived rows indented under their source, sidechain (subagent) rows barred, branch points named.
 * A row opens in place to show the event (output folded); j/k move, Enter opens, o goes to the event's page.
 * More rows are asked for as the ends come near.
 */
import type { JSX } from "preact";
import { useEffect, useMemo, useRef } from "preact/hooks";
import type { ThreadRowView, TimelineRowView } from "../../src/live/history-types.ts";
import { Link, navigate, paths } from "../router.tsx";
import { clock, dayBreaks, shortTime } from "../ui/format.ts";
import { EventPreview } from "./event-preview.tsx";
import { markOf } from "./marks.ts";
import { useVirtual } from "./virtual.ts";

/** A closed row's height in pixels: `.row-main` is 33 px and the row's bottom border 1 px (history.css). */
const ROW_HEIGHT = 34;
/** Rows from an end at which the next window is asked for. */
const NEAR_END = 60;

export interface TimelineListProps {
  rows: Array<TimelineRowView | ThreadRowView>;
  /** A short tag per session for merged (thread) timelines. */
  sessionTag?: (row: ThreadRowView) => string;
  selected: number;
  onSelect(index: number): void;
  expanded: ReadonlySet<string>;
  onToggle(eventId: string): void;
  /** Index to bring into view (the event jumped to), once. */
  focusIndex?: number | undefined;
  onNearStart?: (() => void) | undefined;
  onNearEnd?: (() => void) | undefined;
  /** Rows just added at the start (`n` counts the prepends); the list keeps what was on screen in place. */
  prepended?: { count: number; n: number };
}

function Row(props: {
  row: TimelineRowView | ThreadRowView;
  tag: string | undefined;
  /** The day this row starts, when the day changed since the row before it. */
  day: string | null;
  selected: boolean;
  open: boolean;
  onToggle(): void;
}): JSX.Element {
  const { row } = props;
  const mark = markOf(row.mark);
  return (
    <div
      class={`row${row.sidechain ? " sidechain" : ""}${props.selected ? " selected" : ""}${props.day ? " new-day" : ""}`}
      data-mark={row.mark}
      data-tone={mark.tone}
      style={{ paddingLeft: `${0.5 + row.depth * 1.1}rem` }}
    >
      <button
        type="button"
        class="row-main"
        aria-expanded={props.open}
        onClick={props.onToggle}
        id={`row-${row.event_id}`}
      >
        {props.day && <span class="row-day">{props.day}</span>}
        <span class="row-time" title={shortTime(row.timestamp)}>
          {clock(row.timestamp)}
        </span>
        <span class="row-pos">@{row.ordinal}</span>
        {props.tag && <span class="row-tag">{props.tag}</span>}
        <span class="row-mark" aria-hidden="true">
          {mark.glyph}
        </span>
        <span class="row-kind">{mark.label}</span>
        {row.branch_from && <span class="row-branch">↳ branch</span>}
        {row.sidechain && <span class="row-branch">subagent</span>}
        <span class="row-summary">{row.summary}</span>
      </button>
      {props.open && <EventPreview eventId={row.event_id} />}
    </div>
  );
}

export function TimelineList(props: TimelineListProps): JSX.Element {
  const box = useRef<HTMLDivElement>(null);
  const { rows } = props;
  const list = useVirtual({
    count: rows.length,
    estimate: ROW_HEIGHT,
    getKey: (i) => rows[i]!.event_id,
    scrollElement: () => box.current,
  });
  // Day separators in the reader's time zone, where the date changes between rows.
  const days = useMemo(() => dayBreaks(rows.map((r) => r.timestamp)), [rows]);
  const first = list.items[0]?.index ?? 0;
  const last = list.items.at(-1)?.index ?? 0;

  useEffect(() => {
    if (rows.length === 0) return;
    if (last >= rows.length - NEAR_END) props.onNearEnd?.();
    if (first <= NEAR_END) props.onNearStart?.();
  }, [first, last, rows.length]);
  useEffect(() => {
    // Rows added above keep the rows on screen where they were.
    if (props.prepended?.count) list.virtualizer.scrollBy(props.prepended.count * ROW_HEIGHT);
  }, [props.prepended?.n]);
  useEffect(() => {
    if (props.focusIndex !== undefined && props.focusIndex >= 0) {
      list.virtualizer.scrollToIndex(props.focusIndex, { align: "center" });
    }
  }, [props.focusIndex]);
  // The key listener reads the latest rows and selection from here, and moves the selection here at once: keys
  // pressed faster than the page re-renders (j j) each move on from the previous one.
  const latest = useRef({ rows, selected: props.selected, onSelect: props.onSelect });
  latest.current = { rows, selected: props.selected, onSelect: props.onSelect };
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      const el = event.target as HTMLElement | null;
      const { rows: all, selected: at, onSelect } = latest.current;
      if (event.ctrlKey || event.metaKey || event.altKey || all.length === 0) return;
      if (el && ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName)) return;
      if (event.key === "j" || event.key === "k") {
        const next = event.key === "j" ? Math.min(all.length - 1, at + 1) : Math.max(0, at - 1);
        event.preventDefault();
        latest.current.selected = next;
        onSelect(next);
        list.virtualizer.scrollToIndex(next, { align: "auto" });
        requestAnimationFrame(() =>
          document.getElementById(`row-${all[next]!.event_id}`)?.focus({ preventScroll: true }),
        );
      } else if (event.key === "o" && at >= 0) {
        navigate(paths.event(all[at]!.event_id));
      }
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, []);

  return (
    <div class="timeline-box" ref={box}>
      <ol class="timeline" style={{ height: `${list.total}px` }} aria-label="Timeline">
        {list.items.map((item) => {
          const row = rows[item.index]!;
          return (
            <li
              key={item.key}
              data-index={item.index}
              // Closed rows are exactly ROW_HEIGHT (the stylesheet fixes it); only an opened row is measured.
              ref={props.expanded.has(row.event_id) ? list.virtualizer.measureElement : undefined}
              class="timeline-item"
              style={{ transform: `translateY(${item.start}px)` }}
            >
              <Row
                row={row}
                tag={props.sessionTag && "session_id" in row ? props.sessionTag(row) : undefined}
                day={days[item.index] ?? null}
                selected={item.index === props.selected}
                open={props.expanded.has(row.event_id)}
                onToggle={() => {
                  // A row that closes goes back to its fixed height; it is no longer measured.
                  if (props.expanded.has(row.event_id)) list.virtualizer.resizeItem(item.index, ROW_HEIGHT);
                  props.onSelect(item.index);
                  props.onToggle(row.event_id);
                }}
              />
            </li>
          );
        })}
      </ol>
      {rows.length > 0 && (
        <p class="visually-hidden">
          <Link href={paths.event(rows[Math.max(0, props.selected)]!.event_id)}>Open the selected event</Link>
        </p>
      )}
    </div>
  );
}
