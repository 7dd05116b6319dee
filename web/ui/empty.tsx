/** What a view shows when it has nothing to show: what that means and what to do about it. */
import type { ComponentChildren, JSX } from "preact";

export function Empty(props: { title: string; children?: ComponentChildren }): JSX.Element {
  return (
    <div class="empty" role="status">
      <p class="empty-title">{props.title}</p>
      {props.children && <div class="empty-body">{props.children}</div>}
    </div>
  );
}

export function Failure(props: { error: Error; what: string }): JSX.Element {
  return (
    <div class="empty failure" role="alert">
      <p class="empty-title">Could not load {props.what}</p>
      <p>{props.error.message}</p>
    </div>
  );
}
