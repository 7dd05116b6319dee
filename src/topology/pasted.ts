/**
 * Pasted content: the parts of a user message that are machine output the person pasted (build logs, stack
 * traces, JSON, diffs, test and command output, fenced code) rather than words they typed. Both are kept; the
 * spans are marked so that rules about the person's words (decisions, constraints, requests) read only the typed
 * part, and failures in the pasted part become evidence of their own.
 *
 * Lines are classed one by one (machine, maybe machine, prose, blank) and a span grows around lines that are
 * surely machine output, taking in the lines between them (a log's own prose, "Tip: …") but not the person's
 * sentences before or after.
 */
import { errorSignature, letterShare } from "./error-signature.ts";

export const PASTE_KINDS = ["log", "stack", "json", "diff", "output", "code"] as const;
export type PasteKind = (typeof PASTE_KINDS)[number];

export interface PastedSpan {
  /** Character offsets into the message text, `end` exclusive, on line boundaries. */
  start: number;
  end: number;
  kind: PasteKind;
  lines: number;
}

type LineClass = { strong: PasteKind } | "weak" | "prose" | "blank";

const STACK =
  /^\s*at\s+(?:async\s+)?[\w$.<>[\]\s]*\(?[^()\s]*:\d+:\d+\)?$|^Traceback \(most recent call last\):|^\s*File "[^"]+", line \d+|^\s*(?:\w+\.)*\w*(?:Error|Exception)(?: \[\w+\])?: \S|^\s+\^+\s*$/;
const LOG =
  /^(?:\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}|\[?\d{2}:\d{2}:\d{2}(?:[.,]\d+)?\]?\s|#\d+ \d+(?:\.\d+)? |\d+(?:\.\d+)?\s+(?:npm|yarn|pnpm|error|warn)\b|(?:npm|yarn|pnpm) (?:ERR!|error|warn|notice|WARN|http)\b|\[(?:INFO|WARN|ERROR|DEBUG|TRACE|CLIENT ERROR|theme|\w+)\]\s|(?:INFO|WARN|WARNING|ERROR|DEBUG)[:\s]|Error: Process completed with exit code \d+|Process completed with exit code|Debugger attached\.|Waiting for the debugger to disconnect|Node\.js v\d+)/;
const DIFF =
  /^(?:\s*[+-]\s*\d+(?:\s|$)|diff --git |index [0-9a-f]{6,}\.\.|@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@|@@\s*$|--- a\/|\+\+\+ b\/|[+-](?:\s{2,}|\t)\S)/;
/** A CI log's step line ("Run npm run check"), output only beside other output. */
const RUN_STEP = /^Run (?:npm|npx|yarn|pnpm|bun|node|python3?|pytest|go|cargo|make|git|docker|bash|sh|\.\/)\b/;
const JSON_LINE = /^\s*(?:[{}[\]],?|"[^"\n]{1,80}"\s*:\s*.*)$/;
const OUTPUT =
  /^\s*(?:[✓✔✗✖×⨯]\s|(?:PASS|FAIL)\s+\S|ok \d+ |not ok \d+ |\d+(?:\s+\d+)?\s*[│|](?:\s|$)|[│├└┌┐┘┬┴┼━─║╔╗╚╝⎯⠀-⣿]|[>$❯➜%]\s+\S|> \S)|^\S+\.\w{1,5}:\d+(?::\d+)?(?:\s|:|$)|\berror TS\d+:|^(?:error|warning|warn|info|note|hint)(?:\[[\w-]+\])?:\s|\s{2,}(?:Remove from|Unused|Unlisted)\b|^(?:Checked|Found) \d+ (?:files?|errors?|warnings?)\b|^Tests?:?\s+\d+ (?:passed|failed)|^Test (?:Files|Suites)\b/;
const CODE_CALL =
  /^\s*(?:[\w$.]+\s*\(|(?:const|let|var|return|throw|import|export|function|if|for|while|await|async)\b).*[;{}]\s*$/;
const URL = /https?:\/\/\S+/;

/** Whether one line, on its own, reads as machine output (a log, trace, JSON or command output line). */
export function isMachineLine(line: string): boolean {
  const c = classify(line);
  return typeof c === "object" && c.strong !== "code" && c.strong !== "diff";
}

/** A line of source code (a call or statement ending in `;`, `{` or `}`): what a trace's code frame quotes. */
export function isCodeLine(line: string): boolean {
  return CODE_CALL.test(line) && /[(=]/.test(line);
}

function classify(line: string): LineClass {
  const t = line.trimEnd();
  if (t.trim() === "") return "blank";
  if (DIFF.test(t)) return { strong: "diff" };
  if (STACK.test(t)) return { strong: "stack" };
  if (LOG.test(t.trimStart())) return { strong: "log" };
  if (OUTPUT.test(t)) return { strong: "output" };
  if (JSON_LINE.test(t) && /[{}[\]":]/.test(t)) return { strong: "json" };
  const share = letterShare(t);
  if (t.length >= 200 && share < 0.7) return { strong: /^\s*[[{]/.test(t) ? "json" : "output" };
  if (t.length >= 20 && share < 0.55) return { strong: "output" };
  if (isCodeLine(t)) return { strong: "code" };
  if (RUN_STEP.test(t)) return "weak";
  const words = t.trim().split(/\s+/).length;
  // The person's sentences: mostly letters, several words, not indented like output.
  if (share >= 0.7 && words >= 4 && !/^\s{2,}/.test(t) && !URL.test(t)) return "prose";
  return "weak";
}

/** How far a span reaches across lines that are not surely output, looking for the next one that is. */
const BRIDGE = 3;
/** …and across at most this many lines of any kind. */
const REACH = 12;
const FENCE = /^\s*(?:```|~~~)/;

/** The pasted spans of a message, in order. */
export function pastedSpans(text: string): PastedSpan[] {
  if (!text.includes("\n") && text.length < 200) return [];
  const lines = text.split("\n");
  const starts: number[] = [];
  let at = 0;
  for (const l of lines) {
    starts.push(at);
    at += l.length + 1;
  }
  const offsetOf = (i: number) => (i < lines.length ? starts[i]! : text.length);
  const classes = lines.map(classify);
  const spans: PastedSpan[] = [];
  let i = 0;
  while (i < lines.length) {
    if (FENCE.test(lines[i]!)) {
      let j = i + 1;
      while (j < lines.length && !FENCE.test(lines[j]!)) j++;
      const end = Math.min(j + 1, lines.length);
      spans.push({ start: offsetOf(i), end: Math.min(offsetOf(end), text.length), kind: "code", lines: end - i });
      i = end;
      continue;
    }
    const c = classes[i]!;
    if (typeof c !== "object") {
      i++;
      continue;
    }
    // A span starts at a surely-pasted line, after the lines just above it that look like output too.
    let first = i;
    for (let b = i - 1; b >= 0 && b >= i - REACH; b--) {
      if (FENCE.test(lines[b]!) || (classes[b] !== "weak" && classes[b] !== "blank")) break;
      if (classes[b] === "weak") first = b;
    }
    let last = i;
    const kinds: PasteKind[] = [c.strong];
    let j = i + 1;
    while (j < lines.length) {
      if (FENCE.test(lines[j]!)) break;
      const cj = classes[j]!;
      if (typeof cj === "object") {
        kinds.push(cj.strong);
        last = j;
        j++;
        continue;
      }
      // Reach over other lines only while output resumes within a few of the person's sentences.
      let k = j;
      let prose = 0;
      while (
        k < lines.length &&
        k - j <= REACH &&
        prose <= BRIDGE &&
        typeof classes[k] !== "object" &&
        !FENCE.test(lines[k]!)
      ) {
        if (classes[k] === "prose") prose++;
        k++;
      }
      if (k < lines.length && typeof classes[k] === "object" && prose <= BRIDGE && k - j <= REACH) {
        j = k;
        continue;
      }
      // Trailing lines that look like output (`^`, `Node.js v23`) end the span; the person's words do not.
      while (j < lines.length && classes[j] === "weak") last = j++;
      break;
    }
    const chars = offsetOf(last + 1) - offsetOf(first);
    if (kinds.length >= 2 || chars >= 120) {
      spans.push({
        start: offsetOf(first),
        end: Math.min(offsetOf(last + 1), text.length),
        kind: majority(kinds),
        lines: last - first + 1,
      });
    }
    i = last + 1;
  }
  return spans;
}

function majority(kinds: readonly PasteKind[]): PasteKind {
  const counts = new Map<PasteKind, number>();
  for (const k of kinds) counts.set(k, (counts.get(k) ?? 0) + 1);
  // A stack trace or a diff names the paste even when log lines surround it.
  if ((counts.get("stack") ?? 0) >= 2) return "stack";
  if ((counts.get("diff") ?? 0) >= 1 && (counts.get("diff") ?? 0) * 4 >= kinds.length) return "diff";
  let best: PasteKind = kinds[0]!;
  for (const [k, n] of counts) if (n > (counts.get(best) ?? 0)) best = k;
  return best;
}

/** The text without its pasted spans: what the person typed. */
export function typedText(text: string, spans: readonly PastedSpan[]): string {
  if (spans.length === 0) return text;
  let out = "";
  let at = 0;
  for (const s of spans) {
    out += text.slice(at, s.start);
    at = s.end;
  }
  out += text.slice(at);
  return out.replace(/\n{3,}/g, "\n\n").trim();
}

/** The spans recorded in an event's `meta.pasted`, when they are well formed. */
export function spansOf(meta: Record<string, unknown>): PastedSpan[] {
  const v = meta["pasted"];
  if (!Array.isArray(v)) return [];
  return v.filter(
    (s): s is PastedSpan =>
      typeof s === "object" && s !== null && typeof s.start === "number" && typeof s.end === "number",
  );
}

/** What the person typed in a message whose pasted spans the normalizer marked in `meta.pasted`. */
export function typedPart(e: { text: string; meta: Record<string, unknown> }): string {
  const spans = spansOf(e.meta);
  return spans.length === 0 ? e.text : typedText(e.text, spans);
}

/**
 * The message with each pasted log, trace, JSON document or command output replaced by one line that names it and
 * quotes its first error line: what a quote of the person's words carries. Code and diffs they pasted stay: they
 * are what the person asks to be written.
 */
export function withPastePointers(e: { text: string; meta: Record<string, unknown> }): string {
  const spans = spansOf(e.meta).filter((s) => s.kind !== "code" && s.kind !== "diff");
  if (spans.length === 0) return e.text;
  let out = "";
  let at = 0;
  for (const s of spans) {
    const pasted = e.text.slice(s.start, s.end);
    const line = errorSignature(pasted)?.line;
    const first = line ? `: ${line.length > 160 ? `${line.slice(0, 159)}…` : line}` : "";
    out += `${e.text.slice(at, s.start)}[pasted ${s.kind}, ${s.lines} line${s.lines === 1 ? "" : "s"}${first}]\n`;
    at = s.end;
  }
  return (out + e.text.slice(at)).replace(/\n{3,}/g, "\n\n").trim();
}
