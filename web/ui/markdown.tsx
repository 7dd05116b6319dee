/**
 * Markdown, loaded when first shown: markdown-it and highlight.js are most of the page's script, and a view
 * that shows no markdown (the sessions list, a timeline until a row opens) never waits for them. Until the
 * renderer has loaded, the text is shown as it is.
 */
import type { JSX } from "preact";
import { lazy, Suspense } from "preact/compat";

const MarkdownView = lazy(() => import("./markdown-view.tsx"));

export interface MarkdownProps {
  text: string;
  class?: string;
  /** Keep single line breaks (briefs and ledgers write one item per line). */
  breaks?: boolean;
}

export function Markdown(props: MarkdownProps): JSX.Element {
  return (
    <Suspense fallback={<div class={`markdown plain ${props.class ?? ""}`}>{props.text}</div>}>
      <MarkdownView {...props} />
    </Suspense>
  );
}
