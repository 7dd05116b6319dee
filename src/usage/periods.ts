/** Which day, week and month a call falls in, in the user's time zone, and the 5-hour windows calls are billed in. */

/**
 * Local calendar dates of instants, in one time zone, or in the system's when none is named: the system's is read
 * with Date's own local fields, since making an Intl formatter costs a start of a command 17 ms. Dates are cached
 * per minute (a zone's offset never splits a minute).
 */
export class LocalDates {
  private readonly format: Intl.DateTimeFormat | null;
  private readonly utc: boolean;
  private readonly cache = new Map<string, string>();
  /** The zone's name, or null for the system's. */
  readonly timeZone: string | null;

  constructor(timeZone?: string) {
    const utc = timeZone !== undefined && UTC.has(timeZone.toUpperCase());
    this.utc = utc;
    this.format =
      timeZone === undefined || utc
        ? null
        : new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    this.timeZone = utc ? "UTC" : (this.format?.resolvedOptions().timeZone ?? null);
  }

  /** `YYYY-MM-DD` of an ISO time there, or null when it is no time. */
  date(iso: string | null): string | null {
    if (iso === null) return null;
    // In UTC a whole ISO time's date is its first ten characters.
    if (this.utc && wholeUtc(iso)) return iso.slice(0, 10);
    const minute = iso.slice(0, 16);
    const known = this.cache.get(minute);
    if (known !== undefined) return known;
    const t = Date.parse(iso);
    if (Number.isNaN(t)) return null;
    const date = this.utc
      ? new Date(t).toISOString().slice(0, 10)
      : this.format
        ? this.format.format(t)
        : systemDate(t);
    // Only a whole ISO time can be cached by its minute (a bare date or an offset other than Z cannot).
    if (wholeUtc(iso)) this.cache.set(minute, date);
    return date;
  }
}

const WHOLE_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?Z$/;

/** An ISO time in UTC to the minute or finer (`2026-12-07T08:44Z`, `…:44:09.123Z`). */
function wholeUtc(iso: string): boolean {
  return WHOLE_UTC.test(iso);
}

/** Names of UTC that need no zone data. */
export const UTC = new Set(["UTC", "ETC/UTC", "Z", "GMT", "ETC/GMT", "UNIVERSAL", "ZULU"]);

function systemDate(t: number): string {
  const d = new Date(t);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
}

/** The first day of the week a date is in (`YYYY-MM-DD`), weeks starting on `start` (0 Sunday … 6 Saturday). */
export function weekOf(date: string, start: number): string {
  const t = Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
  const day = new Date(t).getUTCDay();
  const back = (day - start + 7) % 7;
  return new Date(t - back * 86_400_000).toISOString().slice(0, 10);
}

export function monthOf(date: string): string {
  return date.slice(0, 7);
}

const HOUR = 3_600_000;

/**
 * The 5-hour windows Anthropic meters a subscription in: a window opens at the hour of a call made outside any
 * window and holds every call until 5 hours after it opened; a call after 5 idle hours opens a new one too.
 * Given the calls' times (or the first and last of a row of calls that share a window) in ascending order of the
 * first, returns each one's window start (epoch ms).
 */
export function blockStarts(spans: ReadonlyArray<number | readonly [number, number]>, hours = 5): number[] {
  const span = hours * HOUR;
  const out: number[] = [];
  let start = Number.NEGATIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const s of spans) {
    const [t, end] = typeof s === "number" ? [s, s] : s;
    if (t - start > span || t - last > span) start = Math.floor(t / HOUR) * HOUR;
    out.push(start);
    last = Math.max(last, end);
  }
  return out;
}
