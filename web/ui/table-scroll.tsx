/** A wide table scrolls sideways inside its own box, which the keyboard can reach and scroll, not the page. */
import type { ComponentChildren, JSX } from "preact";

export function TableScroll(props: { label: string; children: ComponentChildren }): JSX.Element {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to be scrolled by keys
    <section class="table-scroll" aria-label={props.label} tabIndex={0}>
      {props.children}
    </section>
  );
}
