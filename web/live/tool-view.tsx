/**
 * A tool call's input shown for what it is: a command as a command, an edit as a diff, a write as the file's
 * lines (folded), anything else as its JSON. Used by the transcript's tool cards and by permission prompts.
 */
import type { JSX } from "preact";
import { DiffView } from "../ui/diff-view.tsx";
import { languageOfPath } from "../ui/languages.ts";
import { FoldedText } from "../ui/output.tsx";
import { outputText, type ToolAction } from "./tool-input.ts";

export function ToolInputView(props: { action: ToolAction; input: unknown; foldLines?: number }): JSX.Element {
  const { action } = props;
  switch (action.kind) {
    case "shell":
      return <FoldedText class="command" text={action.command} language="bash" lines={props.foldLines ?? 12} />;
    case "edit":
      return (
        <div class="edits">
          {action.edits.map((e, i) => (
            <DiffView key={i} path={action.path} before={e.before} after={e.after} />
          ))}
        </div>
      );
    case "write":
      return <FoldedText text={action.content} language={languageOfPath(action.path)} lines={props.foldLines ?? 12} />;
    default:
      return <FoldedText class="json" text={outputText(props.input)} language="json" lines={props.foldLines ?? 12} />;
  }
}
