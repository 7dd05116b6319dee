/**
 * Rows of a long timeline fetched a window at a time: the first window (from the start, or around an event),
 * then the windows before and after as the list asks for them. Rows are kept in order, once each.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { getJson } from "../api.ts";

export interface Window<Row, Cursor> {
  rows: Row[];
  earlier: Cursor | null;
  later: Cursor | null;
}

export interface WindowedRows<Row> {
  rows: Row[];
  error: Error | null;
  loading: boolean;
  /** How many rows the last prepend added (with a counter, so the same number twice still changes it). */
  prepended: { count: number; n: number };
  loadEarlier(): void;
  loadLater(): void;
}

export function useWindowedRows<Row extends { event_id: string }, Answer extends Window<Row, Cursor>, Cursor>(
  first: string,
  next: (cursor: Cursor) => string,
  onFirst?: (answer: Answer) => void,
): WindowedRows<Row> & { answer: Answer | null } {
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [rows, setRows] = useState<Row[]>([]);
  const [error, setError] = useState<Error | null>(null);
  const [prepended, setPrepended] = useState({ count: 0, n: 0 });
  const cursors = useRef<{ earlier: Cursor | null; later: Cursor | null }>({ earlier: null, later: null });
  const busy = useRef({ earlier: false, later: false, first: true });
  const generation = useRef(0);

  useEffect(() => {
    const gen = ++generation.current;
    busy.current = { earlier: false, later: false, first: true };
    setError(null);
    getJson<Answer>(first).then(
      (a) => {
        if (gen !== generation.current) return;
        busy.current.first = false;
        cursors.current = { earlier: a.earlier, later: a.later };
        setAnswer(a);
        setRows(a.rows);
        onFirst?.(a);
      },
      (e: unknown) => {
        if (gen !== generation.current) return;
        busy.current.first = false;
        setError(e instanceof Error ? e : new Error(String(e)));
      },
    );
  }, [first]);

  const load = (side: "earlier" | "later"): void => {
    const cursor = cursors.current[side];
    if (cursor === null || busy.current[side] || busy.current.first) return;
    busy.current[side] = true;
    const gen = generation.current;
    getJson<Answer>(next(cursor)).then(
      (a) => {
        if (gen !== generation.current) return;
        busy.current[side] = false;
        cursors.current[side] = a[side];
        setRows((old) => {
          const known = new Set(old.map((r) => r.event_id));
          const fresh = a.rows.filter((r) => !known.has(r.event_id));
          if (side === "later") return [...old, ...fresh];
          setPrepended((p) => ({ count: fresh.length, n: p.n + 1 }));
          return [...fresh, ...old];
        });
      },
      (e: unknown) => {
        busy.current[side] = false;
        if (gen === generation.current) setError(e instanceof Error ? e : new Error(String(e)));
      },
    );
  };

  return {
    answer,
    rows,
    error,
    loading: answer === null && error === null,
    prepended,
    loadEarlier: () => load("earlier"),
    loadLater: () => load("later"),
  };
}
