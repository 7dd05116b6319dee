/**
 * A line diff of an edit's before and after, for the Conversation tab: the lines both keep, the ones taken out and
 * the ones put in, in order. The common start and end are set aside first (an edit changes a few lines of many);
 * the middle is matched by longest common subsequence, or shown all removed then all added when it is too large
 * to match quickly.
 */

export interface DiffLine {
  op: " " | "-" | "+";
  text: string;
}

/** Above this many cells the middle is not matched: an edit that large reads as well replaced whole. */
const MAX_CELLS = 250_000;

export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before === "" ? [] : before.split("\n");
  const b = after === "" ? [] : after.split("\n");
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  const same = (lines: string[]): DiffLine[] => lines.map((text) => ({ op: " ", text }));
  const midA = a.slice(start, a.length - end);
  const midB = b.slice(start, b.length - end);
  return [...same(a.slice(0, start)), ...middle(midA, midB), ...same(a.slice(a.length - end))];
}

function middle(a: string[], b: string[]): DiffLine[] {
  const removed = (text: string): DiffLine => ({ op: "-", text });
  const added = (text: string): DiffLine => ({ op: "+", text });
  if (a.length === 0 || b.length === 0 || a.length * b.length > MAX_CELLS) return [...a.map(removed), ...b.map(added)];
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
  const lcs = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ op: " ", text: a[i]! });
      i++;
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) out.push(removed(a[i++]!));
    else out.push(added(b[j++]!));
  }
  while (i < a.length) out.push(removed(a[i++]!));
  while (j < b.length) out.push(added(b[j++]!));
  return out;
}
