/**
 * One tool call in the transcript: collapsed to a line that says what it did (`$ npm test`, `src/a.ts · +3 −1`,
 * `notes.md · 360 lines`) with its status; opened, the input as a diff or command and the output folded.
 */
import type { JSX } from "preact";
import { memo } from "preact/compat";
import { useMemo } from "preact/hooks";
import type { TranscriptItem } from "../../src/live/protocol.ts";
import { languageOfPath } from "../ui/languages.ts";
import { FoldedText } from "../ui/output.tsx";
import { ToolCardShell } from "../ui/tool-card-shell.tsx";
import { outputText, summarize, toolAction } from "./tool-input.ts";
import { ToolInputView } from "./tool-view.tsx";

type ToolItem = Extract<TranscriptItem, { kind: "tool" }>;

interface Props {
  toolName: string;
  status: ToolItem["status"];
  input: unknown;
  output: unknown;
  nested: boolean;
}

const STATUS_LABEL: Record<ToolItem["status"], string> = { running: "running", done: "done", error: "failed" };

function ToolCardView(props: Props): JSX.Element {
  const action = useMemo(() => toolAction(props.toolName, props.input), [props.toolName, props.input]);
  const summary = useMemo(() => summarize(action), [action]);
  const output = useMemo(() => outputText(props.output), [props.output]);
  const language = action.kind === "read" ? languageOfPath(action.path) : undefined;
  return (
    <ToolCardShell
      name={props.toolName}
      summary={summary}
      status={props.status}
      label={STATUS_LABEL[props.status]}
      class={props.nested ? "nested" : ""}
      eager
      body={() => (
        <>
          {props.input !== undefined && <ToolInputView action={action} input={props.input} />}
          {props.status !== "running" && <FoldedText class="output" text={output} language={language} lines={20} />}
        </>
      )}
    />
  );
}

/** The item is mutated in place by the reducer, so the props are its fields, compared by value. */
export const ToolCard = memo(ToolCardView);
