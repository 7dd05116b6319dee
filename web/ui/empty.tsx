/** What a view shows when it has nothing to show: what that means and what to do about it. */
import type { ComponentChildren, JSX } from "preact";
import { Link, paths } from "../router.tsx";

export function Empty(props: { title: string; children?: ComponentChildren }): JSX.Element {
  return (
    <div class="empty" role="status">
      <p class="empty-title">{props.title}</p>
      {props.children && <div class="empty-body">{props.children}</div>}
    </div>
  );
}

export function Failure(props: { error: Error; what: string }): JSX.Element {
  const { error } = props;
  const code = (error as { code?: string }).code;
  const hint = (error as { hint?: string | null }).hint;
  if (code === "no_index") {
    return (
      <div class="empty" role="status">
        <p class="empty-title">No index yet</p>
        <p>
          Run <code>cairn index</code> in a terminal to read your agents' transcripts (Claude Code, Codex, pi, Gemini
          CLI, …), then reload this page.
        </p>
        <p class="meta">{error.message}</p>
      </div>
    );
  }
  const candidates = (error as { candidates?: readonly string[] }).candidates ?? [];
  const kind = (error as { kind?: string | null }).kind;
  const link =
    kind === "session" ? paths.timeline : kind === "event" ? paths.event : kind === "thread" ? paths.thread : null;
  return (
    <div class="empty failure" role="alert">
      <p class="empty-title">Could not load {props.what}</p>
      <p>{error.message}</p>
      {code === "ambiguous_id" && link && candidates.length > 0 ? (
        <ul class="candidates" aria-label={`${kind}s that id could mean`}>
          {candidates.map((id) => (
            <li key={id}>
              <Link href={link(id)}>{id}</Link>
            </li>
          ))}
        </ul>
      ) : (
        hint && <p>{hint}</p>
      )}
    </div>
  );
}
