/** Small formatting shared by the views. */

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n.toLocaleString("en")} ${n === 1 ? word : many}`;
}

/** `2024-05-01 14:03` in the browser's time zone; "—" when unknown. */
export function shortTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const pad = (n: number): string => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function clock(iso: string | null | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const pad = (n: number): string => String(n).padStart(2, "0");
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** The reader's own calendar day of a time ("Sun, 7 Dec 2026"), or null without a time. */
export function localDay(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return null;
  return d.toLocaleDateString("en-GB", { weekday: "short", day: "numeric", month: "short", year: "numeric" });
}

/**
 * Where a list of times crosses midnight in the reader's time zone: the new day for the first row of each day (the
 * first timed row included), null elsewhere. A row without a time belongs to the day of the row before it.
 */
export function dayBreaks(times: ReadonlyArray<string | null | undefined>): Array<string | null> {
  let current: string | null = null;
  return times.map((t) => {
    const day = localDay(t);
    if (day === null || day === current) return null;
    current = day;
    return day;
  });
}

export function shortId(id: string, n = 8): string {
  return id.length > n ? id.slice(0, n) : id;
}

export function firstLine(text: string | null | undefined, max = 140): string {
  const line = (text ?? "").split("\n").find((l) => l.trim() !== "") ?? "";
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
