/** A search snippet: the words that matched (marked «like this» by the search) become <mark> elements. */
import type { JSX } from "preact";

export function Snippet(props: { text: string }): JSX.Element {
  const parts = props.text.split(/«([^«»]*)»/);
  return <span class="snippet">{parts.map((part, i) => (i % 2 === 1 ? <mark key={i}>{part}</mark> : part))}</span>;
}
