/**
 * Long text (tool output, a file being written) shown folded: the first lines and a "Show all" button that
 * says how much is hidden. Highlighted when the language is known.
 */
import type { JSX } from "preact";
import { useMemo, useState } from "preact/hooks";
import { countLines } from "./diff-view.tsx";
import { useHighlighted } from "./use-highlighted.ts";

export interface FoldedTextProps {
  text: string;
  /** Lines shown before "Show all". */
  lines?: number;
  language?: string | undefined;
  class?: string;
}

export function FoldedText(props: FoldedTextProps): JSX.Element {
  const limit = props.lines ?? 12;
  const [open, setOpen] = useState(false);
  const total = useMemo(() => countLines(props.text), [props.text]);
  const folded = !open && total > limit + 2;
  const shown = folded ? props.text.split("\n").slice(0, limit).join("\n") : props.text;
  const html = useHighlighted(shown, props.language);
  return (
    <div class={`folded ${props.class ?? ""}`}>
      {/* highlight.js escapes the source text; its HTML is only span elements with classes. */}
      {html !== null ? <pre dangerouslySetInnerHTML={{ __html: html }} /> : <pre>{shown}</pre>}
      {total > limit + 2 && (
        <button type="button" class="link-button" onClick={() => setOpen(!open)} aria-expanded={open}>
          {open ? "Show less" : `Show all ${total} lines`}
        </button>
      )}
    </div>
  );
}
