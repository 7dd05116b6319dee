/**
 * Tool-call arguments back out of an event's text. The normalizer renders a call's input as `key: value` lines
 * (nested values as JSON); given the keys a tool takes, each value runs from its key to the next known key.
 */

export function toolArgs(text: string, keys: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const re = new RegExp(`(^|\\n)(${keys.map((k) => k.replace(/[^\w]/g, "")).join("|")}): `, "g");
  const marks: Array<{ key: string; start: number; end: number }> = [];
  for (const m of text.matchAll(re)) {
    const key = m[2]!;
    if (marks.some((x) => x.key === key)) continue; // a value that contains "key: " later is still that value
    const at = m.index + m[1]!.length;
    marks.push({ key, start: at, end: at + key.length + 2 });
  }
  marks.forEach((m, i) => {
    const next = marks[i + 1];
    out[m.key] = text.slice(m.end, next ? next.start - 1 : text.length);
  });
  return out;
}

/** A JSON argument (`todos: [...]`), or undefined when it does not parse. */
export function jsonArg(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Text as a file tool showed it, without `cat -n` style line-number gutters (`   12→`, `12\t`). */
export function stripLineNumbers(text: string): string {
  const lines = text.split("\n");
  const numbered = lines.filter((l) => /^\s*\d+(→|\t)/.test(l)).length;
  if (numbered < Math.max(1, lines.length * 0.6)) return text;
  return lines.map((l) => l.replace(/^\s*\d+(→|\t)/, "")).join("\n");
}
