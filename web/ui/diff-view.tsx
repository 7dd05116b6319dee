/**
 * An edit as a unified diff (jsdiff's `structuredPatch`, three lines of context): removed lines, added lines
 * and the hunk headers as elements of their own, so a reader (and a screen reader, through the labels) can
 * tell them apart without colour.
 */
import { structuredPatch } from "diff";
import type { JSX } from "preact";
import { useMemo } from "preact/hooks";

export interface DiffProps {
  path: string;
  before: string;
  after: string;
  /** A write of a new file shows every line as added. */
  label?: string;
}

export function countLines(text: string): number {
  if (text === "") return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

export function diffStats(before: string, after: string): { added: number; removed: number } {
  const patch = structuredPatch("a", "b", before, after, "", "", { context: 0 });
  let added = 0;
  let removed = 0;
  for (const hunk of patch.hunks)
    for (const line of hunk.lines) {
      if (line.startsWith("+")) added++;
      else if (line.startsWith("-")) removed++;
    }
  return { added, removed };
}

export function DiffView(props: DiffProps): JSX.Element {
  const hunks = useMemo(
    () => structuredPatch(props.path, props.path, props.before, props.after, "", "", { context: 3 }).hunks,
    [props.path, props.before, props.after],
  );
  if (hunks.length === 0) return <p class="muted">No change to the text.</p>;
  return (
    <figure class="diff" aria-label={props.label ?? `Changes to ${props.path}`}>
      {hunks.map((hunk) => (
        <div class="hunk" key={`${hunk.oldStart}:${hunk.newStart}`}>
          <div class="hunk-head">
            @@ −{hunk.oldStart},{hunk.oldLines} +{hunk.newStart},{hunk.newLines} @@
          </div>
          {hunk.lines.map((line, i) => {
            const sign = line[0];
            const kind = sign === "+" ? "add" : sign === "-" ? "del" : sign === "\\" ? "note" : "ctx";
            return <DiffLine key={i} kind={kind} text={line.slice(1)} />;
          })}
        </div>
      ))}
    </figure>
  );
}

/**
 * A patch as the agent wrote it (Codex's `apply_patch` envelope, a unified diff): its `+` and `−` lines shown as a
 * diff, its file and hunk headers as headings.
 */
export function PatchView(props: { patch: string }): JSX.Element {
  const lines = props.patch.replace(/\n$/, "").split("\n");
  return (
    <figure class="diff" aria-label="Patch">
      <div class="hunk">
        {lines.map((line, i) => {
          const head = /^(\*\*\*|@@|diff |\+\+\+ |--- |index )/.test(line);
          const kind = head ? "head" : line[0] === "+" ? "add" : line[0] === "-" ? "del" : "ctx";
          if (kind === "head")
            return (
              <div class="hunk-head" key={i}>
                {line}
              </div>
            );
          return <DiffLine key={i} kind={kind} text={kind === "ctx" ? line.replace(/^ /, "") : line.slice(1)} />;
        })}
      </div>
    </figure>
  );
}

/** One line of a diff: its sign for the eye, "added"/"removed" for a screen reader, and its text. */
function DiffLine(props: { kind: "add" | "del" | "note" | "ctx"; text: string }): JSX.Element {
  const { kind } = props;
  return (
    <div class={`line ${kind}`}>
      <span class="sign" aria-hidden="true">
        {kind === "add" ? "+" : kind === "del" ? "−" : " "}
      </span>
      {kind !== "ctx" && <span class="visually-hidden">{kind === "add" ? "added: " : "removed: "}</span>}
      <span class="text">{props.text}</span>
    </div>
  );
}
