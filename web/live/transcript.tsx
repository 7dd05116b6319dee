/**
 * The live transcript: the user's messages, the agent's replies as markdown, tool cards and notices. Items are
 * keyed by their ids, and each one re-renders only when its own fields change. The view stays pinned to the
 * bottom while the user is there, and stays put when they scrolled up to read.
 */
import type { JSX } from "preact";
import { memo } from "preact/compat";
import { useLayoutEffect, useRef } from "preact/hooks";
import type { LiveView, TranscriptItem } from "../../src/live/protocol.ts";
import { Markdown } from "../ui/markdown.tsx";
import { ToolCard } from "./tool-card.tsx";

const AssistantText = memo(function AssistantText(props: { text: string; status: string }): JSX.Element {
  return (
    <div class="item assistant" data-status={props.status}>
      <Markdown text={props.text} />
      {props.status === "interrupted" && <p class="status-note">(interrupted)</p>}
      {props.status === "failed" && <p class="status-note bad">(failed)</p>}
    </div>
  );
});

function keyOf(item: TranscriptItem, index: number): string {
  switch (item.kind) {
    case "user":
      return `user:${item.turnId}`;
    case "assistant":
      return `assistant:${item.messageId}`;
    case "tool":
      return `tool:${item.toolUseId}`;
    case "notice":
      return `notice:${index}`;
  }
}

function Item(props: { item: TranscriptItem }): JSX.Element {
  const { item } = props;
  switch (item.kind) {
    case "user":
      return <div class="item user">{item.text}</div>;
    case "assistant":
      return <AssistantText text={item.text} status={item.status} />;
    case "tool":
      return (
        <ToolCard
          toolName={item.toolName}
          status={item.status}
          input={item.input}
          output={item.output}
          nested={item.parentToolUseId !== undefined}
        />
      );
    case "notice":
      return (
        <div class={`item notice ${item.level}`} role={item.level === "error" ? "alert" : "status"}>
          <p>
            {item.code === "driver_failed" ? "The agent could not start: " : ""}
            {item.text}
          </p>
          {item.hint && <p class="hint">{item.hint}</p>}
        </div>
      );
  }
}

export function Transcript(props: { view: LiveView; empty: JSX.Element }): JSX.Element {
  const root = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const { view } = props;
  useLayoutEffect(() => {
    const el = root.current;
    if (el && pinned.current) el.scrollTop = el.scrollHeight;
  });
  const onScroll = (): void => {
    const el = root.current;
    if (el) pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
  };
  return (
    <div
      class="transcript"
      id="transcript"
      ref={root}
      onScroll={onScroll}
      role="log"
      aria-label="Transcript"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the transcript scrolls; keys must be able to scroll it.
      tabIndex={0}
    >
      {view.droppedItems > 0 && <p class="dropped">{view.droppedItems} earlier items are not shown</p>}
      {view.transcript.length === 0 && props.empty}
      {view.transcript.map((item, i) => (
        <Item key={keyOf(item, i)} item={item} />
      ))}
    </div>
  );
}
