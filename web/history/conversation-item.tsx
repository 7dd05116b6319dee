/**
 * One block of a conversation: a message (markdown for the agent, as typed for the person), a tool call as a card
 * whose body is built only when opened (a long session has hundreds), a divider for a compaction or resume point,
 * or a subagent's own conversation nested where it began. Each block carries its event's id as its anchor.
 */
import type { JSX } from "preact";
import type { ConversationItemView, MarkView, TypedInput } from "../../src/live/history-types.ts";
import type { ToolAction } from "../live/tool-input.ts";
import { ToolInputView } from "../live/tool-view.tsx";
import { Link, paths } from "../router.tsx";
import { PatchView } from "../ui/diff-view.tsx";
import { shortTime } from "../ui/format.ts";
import { Markdown } from "../ui/markdown.tsx";
import { FoldedText } from "../ui/output.tsx";
import { ToolCardShell } from "../ui/tool-card-shell.tsx";
import { sessionName } from "./session-meta.tsx";

type Tool = Extract<ConversationItemView, { kind: "tool" }>;

export function anchorOf(item: ConversationItemView): string {
  if (item.kind === "subagent") return `s-${item.session.session_id}`;
  if (item.kind === "inherited") return "inherited";
  return `e-${item.kind === "mark" ? item.mark.event_id : item.event_id}`;
}

/** `sessionId`: the session the item's events are in (a nested subagent's own, not the page's). */
export function ConversationItem(props: {
  item: ConversationItemView;
  focus: string | null;
  sessionId: string;
}): JSX.Element {
  const { item } = props;
  const focused = anchorOf(item) === `e-${props.focus}`;
  switch (item.kind) {
    case "message":
      // A reply that only called tools says nothing of its own: its cards follow.
      if (item.text.trim() === "" && item.marks.length === 0) return <span id={anchorOf(item)} />;
      return (
        <article
          id={anchorOf(item)}
          class={`conv-item message ${item.who}${item.who === "user" ? " item user" : ""}${focused ? " focus" : ""}`}
        >
          <ItemHead who={item.who === "assistant" ? "agent" : item.who} time={item.time} id={item.event_id} />
          {item.who === "assistant" ? <Markdown text={item.text} /> : <div class="typed">{item.text}</div>}
          <Marks marks={item.marks} brief={item.who === "user"} />
        </article>
      );
    case "tool":
      return <ToolBlock item={item} focused={focused} sessionId={props.sessionId} />;
    case "mark":
      return item.mark.type === "resume_point" ? (
        <div id={anchorOf(item)} class={`conv-divider${focused ? " focus" : ""}`}>
          <span>
            {item.mark.glyph} {item.mark.text}
          </span>
        </div>
      ) : (
        <p id={anchorOf(item)} class={`conv-mark ${item.mark.type}${focused ? " focus" : ""}`}>
          <Mark mark={item.mark} />
        </p>
      );
    case "subagent":
      return <Subagent item={item} focus={props.focus} />;
    case "inherited":
      return <Inherited item={item} focus={props.focus} sessionId={props.sessionId} />;
  }
}

function ItemHead(props: { who: string; time: string | null; id: string }): JSX.Element {
  return (
    <header class="conv-head">
      <span class="who">{props.who}</span>
      {props.time && <time dateTime={props.time}>{shortTime(props.time)}</time>}
      <Link class="conv-link" href={paths.event(props.id)} aria-label={`event ${props.id}`}>
        #
      </Link>
    </header>
  );
}

function ToolBlock(props: { item: Tool; focused: boolean; sessionId: string }): JSX.Element {
  const { item } = props;
  const failed = item.status === "error";
  const exit = item.exit_code !== null ? `exit ${item.exit_code}` : null;
  return (
    <div id={anchorOf(item)} class={`conv-tool${props.focused ? " focus" : ""}`}>
      <ToolCardShell
        name={item.name}
        summary={item.summary}
        status={failed ? "error" : "done"}
        label={exit ?? (failed ? "failed" : "done")}
        size={item.output ? item.output.text.length + item.output.cut : 0}
        class={`conv-item${failed ? " failed" : ""}`}
        initiallyOpen={props.focused}
        body={() => <ToolBody item={item} sessionId={props.sessionId} />}
      />
      <Marks marks={item.marks} />
    </div>
  );
}

function ToolBody(props: { item: Tool; sessionId: string }): JSX.Element {
  const { item } = props;
  return (
    <>
      <InputView item={item} />
      {item.output && item.output.text !== "" && (
        <>
          <FoldedText class="output" text={item.output.text} lines={20} />
          {item.output.cut > 0 && (
            <p class="muted">
              {item.output.cut.toLocaleString("en")} more characters:{" "}
              <Link href={paths.event(item.event_id)}>the whole call and its output</Link>
            </p>
          )}
        </>
      )}
      <p class="conv-foot">
        <Link href={paths.event(item.event_id)}>Event {item.event_id}</Link> ·{" "}
        <Link href={paths.timeline(props.sessionId, item.event_id)}>in the timeline</Link>
      </p>
    </>
  );
}

/** The call's input as the live view shows one: an edit as a diff, a command, a file's lines; a patch as a diff. */
function InputView(props: { item: Tool }): JSX.Element | null {
  const t: TypedInput | null = props.item.typed;
  if (t?.kind === "patch" && t.patch) return <PatchView patch={t.patch} />;
  const action = actionOf(t);
  if (action) return <ToolInputView action={action} input={t} />;
  if (props.item.input.text === "") return null;
  return <FoldedText class="json" text={props.item.input.text} />;
}

/** The agent-neutral input as the live view's action, for the kinds it draws. */
function actionOf(t: TypedInput | null): ToolAction | null {
  if (t?.kind === "edit" && t.path && t.edits?.length) {
    const edits = t.edits.flatMap((e) => (e.new !== undefined ? [{ before: e.old, after: e.new }] : []));
    return edits.length > 0 ? { kind: "edit", path: t.path, edits } : null;
  }
  if (t?.kind === "shell" && t.command) return { kind: "shell", command: t.command };
  if (t?.kind === "write" && t.path && t.content !== undefined)
    return { kind: "write", path: t.path, content: t.content };
  return null;
}

/** `brief`: under a person's message, whose words the marks (a decision, a constraint) would only repeat. */
function Marks(props: { marks: MarkView[]; brief?: boolean }): JSX.Element | null {
  if (props.marks.length === 0) return null;
  return (
    <ul class="conv-marks">
      {props.marks.map((m) => (
        <li key={m.event_id} class={m.type}>
          <Mark mark={m} brief={props.brief} />
        </li>
      ))}
    </ul>
  );
}

function Mark(props: { mark: MarkView; brief?: boolean | undefined }): JSX.Element {
  const m = props.mark;
  const text = props.brief ? m.text.replace(/:.*$/s, "") : m.text;
  return (
    <Link href={paths.event(m.event_id)} class={`mark ${m.glyph === "✗" ? "bad" : ""}`}>
      <span aria-hidden="true">{m.glyph}</span> {text}
    </Link>
  );
}

function Subagent(props: { item: Extract<ConversationItemView, { kind: "subagent" }>; focus: string | null }) {
  const s = props.item.session;
  return (
    <details id={anchorOf(props.item)} class="conv-subagent">
      <summary>
        <span class="tag">{s.kind}</span> {s.title ?? `${s.provider} ${s.kind}`}{" "}
        <span class="muted">
          · {s.event_count.toLocaleString("en")} events · {shortTime(s.started_at)}
        </span>
      </summary>
      <div class="conv-nested">
        {props.item.items.map((i) => (
          <ConversationItem key={anchorOf(i)} item={i} focus={props.focus} sessionId={s.session_id} />
        ))}
        <p class="conv-foot">
          <Link href={paths.conversation(s.session_id)}>Open this {s.kind} on its own</Link>
        </p>
      </div>
    </details>
  );
}

/** A fork's copy of its parent's conversation, folded above where the fork began (open when it holds the focus). */
function Inherited(props: {
  item: Extract<ConversationItemView, { kind: "inherited" }>;
  focus: string | null;
  sessionId: string;
}) {
  const from = props.item.from;
  const holds = props.item.items.some((i) => anchorOf(i) === `e-${props.focus}`);
  return (
    <details id="inherited" class="conv-subagent conv-inherited" open={holds}>
      <summary>
        Carried over from {from ? sessionName(from) : "the session it was forked from"}{" "}
        <span class="muted">· {props.item.items.length} items, up to where this fork began</span>
      </summary>
      <div class="conv-nested">
        {props.item.items.map((i) => (
          <ConversationItem key={anchorOf(i)} item={i} focus={props.focus} sessionId={props.sessionId} />
        ))}
        {from && (
          <p class="conv-foot">
            <Link href={paths.conversation(from.session_id)}>Open the parent session</Link>
          </p>
        )}
      </div>
    </details>
  );
}
