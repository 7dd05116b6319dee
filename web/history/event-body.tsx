/**
 * An event's text shown for what it is: a person's or the agent's words as markdown, tool output and commands
 * as folded monospace text (highlighted by the file's language when it has one).
 */
import type { JSX } from "preact";
import type { EventView } from "../../src/live/history-types.ts";
import { languageOfPath } from "../ui/languages.ts";
import { Markdown } from "../ui/markdown.tsx";
import { FoldedText } from "../ui/output.tsx";

const PROSE = new Set(["user_message", "assistant_message", "decision", "resume_point"]);

export function EventBody(props: { event: EventView; lines?: number }): JSX.Element {
  const e = props.event;
  if (e.text.trim() === "") return <p class="muted">(no text)</p>;
  if (PROSE.has(e.event_type)) return <Markdown text={e.text} />;
  const language = e.event_type === "command" ? "bash" : languageOfPath(e.file_path ?? undefined);
  return <FoldedText text={e.text} lines={props.lines ?? 20} language={language} />;
}
