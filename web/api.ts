/**
 * The page's reads of the history API (`/api/history/…`, JSON, same origin, the session cookie). Errors come
 * back as `ApiError` with the server's code and message, which the views show as they are.
 */
import { useEffect, useState } from "preact/hooks";

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** What to do about it, when the server said. */
  readonly hint: string | null;
  /** The ids an ambiguous prefix matched, and what they are ids of (session, event, thread). */
  readonly candidates: readonly string[];
  readonly kind: string | null;
  constructor(
    status: number,
    code: string,
    message: string,
    hint: string | null = null,
    more: { candidates?: readonly string[]; kind?: string | null } = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.hint = hint;
    this.candidates = more.candidates ?? [];
    this.kind = more.kind ?? null;
  }
}

/** The body of a JSON answer, or the server's error as an `ApiError`. */
async function answerOf<T>(response: Response): Promise<T> {
  const body = (await response.json().catch(() => null)) as unknown;
  if (!response.ok) {
    const error = (
      body as {
        error?: { code?: string; message?: string; hint?: string | null; candidates?: string[]; kind?: string };
      } | null
    )?.error;
    throw new ApiError(
      response.status,
      error?.code ?? "http_error",
      error?.message ?? `HTTP ${response.status}`,
      error?.hint ?? null,
      { candidates: error?.candidates ?? [], kind: error?.kind ?? null },
    );
  }
  return body as T;
}

export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  const response = await fetch(path, {
    headers: { Accept: "application/json" },
    credentials: "same-origin",
    ...(signal ? { signal } : {}),
  });
  return answerOf<T>(response);
}

export type Loaded<T> =
  | { state: "loading"; data?: T }
  | { state: "ready"; data: T }
  | { state: "error"; error: ApiError | Error; data?: T };

/** Loads `path` whenever it changes; the previous data stays visible while the next one loads. */
export function useJson<T>(path: string | null): Loaded<T> {
  const [result, setResult] = useState<Loaded<T>>({ state: "loading" });
  useEffect(() => {
    if (path === null) return;
    const abort = new AbortController();
    setResult((r) => (r.data !== undefined ? { state: "loading", data: r.data } : { state: "loading" }));
    getJson<T>(path, abort.signal).then(
      (data) => setResult({ state: "ready", data }),
      (error: unknown) => {
        if (abort.signal.aborted) return;
        setResult({ state: "error", error: error instanceof Error ? error : new Error(String(error)) });
      },
    );
    return () => abort.abort();
  }, [path]);
  return result;
}

/** Posts JSON to the page's own server (same origin, the session cookie); errors as `getJson`'s. */
export async function postJson<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T> {
  const response = await fetch(path, {
    method: "POST",
    headers: { Accept: "application/json", "Content-Type": "application/json" },
    credentials: "same-origin",
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
  return answerOf<T>(response);
}
