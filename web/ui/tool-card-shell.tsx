/**
 * A tool call's card, as the live transcript and a past session's conversation both show it: one line that says
 * what the call did and how it ended (its name, its summary, a status badge, the output's size), folded; opened,
 * the body its view gives. A past conversation's body is built only while its card is open, so a session of
 * hundreds of calls does not render hundreds of diffs.
 */
import type { ComponentChildren, JSX } from "preact";
import { useState } from "preact/hooks";
import { sizeLabel } from "../../src/common/size-label.ts";

export interface ToolCardShellProps {
  name: string;
  summary: string;
  /** `running`, `done` or `error`: the badge's colour. */
  status: "running" | "done" | "error";
  label: string;
  /** Characters of output, shown beside the badge when known. */
  size?: number;
  class?: string;
  initiallyOpen?: boolean;
  /** Build the body while folded too (the live transcript: few cards, each found by the browser's find). */
  eager?: boolean;
  body: () => ComponentChildren;
}

export function ToolCardShell(props: ToolCardShellProps): JSX.Element {
  const [open, setOpen] = useState(props.initiallyOpen === true);
  return (
    <details
      class={`item tool ${props.class ?? ""}`}
      data-status={props.status}
      open={open}
      onToggle={(e) => setOpen(e.currentTarget.open)}
    >
      <summary>
        <span class="tool-name">{props.name}</span>
        <span class="tool-summary">{props.summary}</span>
        <span class="badge" data-status={props.status}>
          {props.label}
        </span>
        {props.size !== undefined && props.size > 0 && <span class="muted size">{sizeLabel(props.size)}</span>}
      </summary>
      {(open || props.eager) && <div class="tool-body">{props.body()}</div>}
    </details>
  );
}
