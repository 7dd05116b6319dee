/**
 * What "still failing" means, everywhere cairn says it (the overview, resume briefs, thread labels): a check is
 * failing when its latest run for the same canonical command failed. A different command passing later — a
 * single test file after the whole suite failed, a type check after the tests — does not answer it.
 */

/** A check run as any layer holds it: a `test_result` event, or a row read for it. */
export interface CheckRunLike {
  status: string | null;
  /** Position in its session; runs compared must come from one session. */
  ordinal: number;
}

/** The key runs of one check share: its canonical command, or its result text when it has no command. */
export function checkKey(run: { command: string | null; text: string }): string {
  return run.command ?? run.text;
}

/** The latest run of each check, by key, in session order. */
export function latestRuns<T extends CheckRunLike>(runs: Iterable<T>, keyOf: (run: T) => string): T[] {
  const latest = new Map<string, T>();
  for (const r of runs) {
    const key = keyOf(r);
    const prev = latest.get(key);
    if (!prev || prev.ordinal < r.ordinal) latest.set(key, r);
  }
  return [...latest.values()].sort((a, b) => a.ordinal - b.ordinal);
}

/** Whether a (latest) run failed. */
export function isFailing(run: Pick<CheckRunLike, "status">): boolean {
  return run.status === "fail";
}

/** The checks still failing: those whose latest run failed. */
export function stillFailing<T extends CheckRunLike>(runs: Iterable<T>, keyOf: (run: T) => string): T[] {
  return latestRuns(runs, keyOf).filter(isFailing);
}
