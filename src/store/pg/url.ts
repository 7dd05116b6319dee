/** Whether a `--db` value names a PostgreSQL team index rather than a SQLite file (kept apart so it loads nothing). */
export function isPgUrl(s: string): boolean {
  return /^postgres(ql)?:\/\//i.test(s);
}
