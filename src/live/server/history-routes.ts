/**
 * The history API under `/api/history/`: read-only JSON over the index, for the page's history views. Each
 * handler parses the query string, asks the application layer (`src/app/`) one question and sends its answer;
 * ids, prefixes, ranking and SQL all stay in the app. Access is the page's: Host allowlist, then the session
 * cookie or the bearer token; a cross-origin `Origin` is refused like on every other route.
 *
 *   GET /api/history/sessions?provider=&project=&since=&until=&all=1&limit=
 *   GET /api/history/search?q=&limit=&mode=&explain=1
 *   GET /api/history/sessions/:id                     the session's row
 *   GET /api/history/sessions/:id/timeline?from=&to=&around=&limit=&all=1
 *   GET /api/history/sessions/:id/brief?at=&budget=&ratio=&step=
 *   GET /api/history/events/:id                       the event, its edges, and where it came from
 *   GET /api/history/threads?project=&single=1&limit=
 *   GET /api/history/threads/:id?start=&limit=&all=1
 */
import { eventWithChain } from "../../app/event-chain.ts";
import { CairnError, errorCode, errorHint, errorMessage } from "../../common/errors.ts";
import type { HistoryApp } from "./history-shapes.ts";
import { HttpError } from "./http-error.ts";

const STATUS: Record<string, number> = {
  usage: 400,
  bad_query: 400,
  ambiguous_id: 409,
  not_found: 404,
  no_index: 404,
  index_unavailable: 503,
  index_busy: 503,
  interrupted: 503,
};

export type HistoryAnswer = { status: number; body: unknown };

function int(params: URLSearchParams, name: string, min: number, max: number): number | undefined {
  const raw = params.get(name);
  if (raw === null || raw === "") return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new HttpError(400, "usage", `${name} must be a whole number from ${min} to ${max}, not '${raw}'`);
  }
  return value;
}

function num(params: URLSearchParams, name: string): number | undefined {
  const raw = params.get(name);
  if (raw === null || raw === "") return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new HttpError(400, "usage", `${name} must be a positive number`);
  return value;
}

const text = (params: URLSearchParams, name: string): string | undefined => {
  const v = params.get(name)?.trim();
  return v ? v : undefined;
};

const flag = (params: URLSearchParams, name: string): boolean => ["1", "true", "yes"].includes(params.get(name) ?? "");

const list = (params: URLSearchParams, name: string): string[] =>
  params
    .getAll(name)
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);

/** Routes one GET under `/api/history/`; the segments after it, already split and decoded. */
async function route(app: HistoryApp, segments: string[], q: URLSearchParams): Promise<unknown> {
  const [head, id, tail, ...rest] = segments;
  if (rest.length > 0) return undefined;
  if (head === "search" && id === undefined) {
    const query = text(q, "q");
    if (!query) throw new HttpError(400, "usage", "give a query in q");
    const mode = text(q, "mode");
    if (mode !== undefined && !["hybrid", "lexical", "vector"].includes(mode)) {
      throw new HttpError(400, "usage", "mode is hybrid, lexical or vector");
    }
    const started = performance.now();
    const answer = await app.search({
      query,
      limit: int(q, "limit", 1, 500) ?? 30,
      ...(mode ? { mode: mode as "hybrid" | "lexical" | "vector" } : {}),
      ...(flag(q, "explain") ? { explain: true } : {}),
    });
    return { ...answer, took_ms: Math.round(performance.now() - started) };
  }
  if (head === "sessions" && id === undefined) {
    const providers = list(q, "provider");
    const projects = list(q, "project");
    const since = text(q, "since");
    const until = text(q, "until");
    const sessions = app.sessions({
      limit: int(q, "limit", 1, 1000) ?? 50,
      all: flag(q, "all"),
      ...(providers.length ? { providers: providers as never } : {}),
      ...(projects.length ? { projects } : {}),
      ...(since ? { since } : {}),
      ...(until ? { until } : {}),
    });
    return { sessions };
  }
  if (head === "sessions" && id !== undefined && tail === undefined) return { session: app.session(id) };
  if (head === "sessions" && id !== undefined && tail === "timeline") {
    const around = text(q, "around");
    const from = int(q, "from", 0, Number.MAX_SAFE_INTEGER);
    const to = int(q, "to", 0, Number.MAX_SAFE_INTEGER);
    return app.timeline({
      session: id,
      limit: int(q, "limit", 1, 5000) ?? 500,
      all: flag(q, "all"),
      ...(around ? { around } : {}),
      ...(from !== undefined ? { from } : {}),
      ...(to !== undefined ? { to } : {}),
    });
  }
  if (head === "sessions" && id !== undefined && tail === "brief") {
    const at = text(q, "at");
    const budget = int(q, "budget", 200, 500_000);
    const ratio = num(q, "ratio");
    const step = int(q, "step", 0, 1_000_000);
    return app.brief({
      session: id,
      ...(at ? { at } : {}),
      ...(budget !== undefined ? { budget } : {}),
      ...(ratio !== undefined ? { ratio } : {}),
      ...(step !== undefined ? { step } : {}),
    });
  }
  if (head === "events" && id !== undefined && tail === undefined) {
    return eventWithChain(app, id);
  }
  if (head === "threads" && id === undefined) {
    const projects = list(q, "project");
    return app.threads({
      limit: int(q, "limit", 1, 1000) ?? 100,
      includeSingle: flag(q, "single"),
      ...(projects.length ? { project: projects } : {}),
    });
  }
  if (head === "threads" && id !== undefined && tail === undefined) {
    const start = int(q, "start", 0, Number.MAX_SAFE_INTEGER);
    return app.threadTimeline({
      thread: id,
      limit: int(q, "limit", 1, 5000) ?? 500,
      all: flag(q, "all"),
      ...(start !== undefined ? { start_row: start } : {}),
    });
  }
  return undefined;
}

/** Answers a history request, turning the app's errors into HTTP statuses with their code, message and hint. */
export async function answerHistory(
  app: HistoryApp | null,
  segments: string[],
  query: URLSearchParams,
): Promise<HistoryAnswer> {
  if (!app) {
    return {
      status: 404,
      body: {
        error: { code: "no_index", message: "this server was started without an index", hint: "run 'cairn index'" },
      },
    };
  }
  try {
    const body = await route(app, segments, query);
    if (body === undefined) {
      return { status: 404, body: { error: { code: "not_found", message: "no such history request" } } };
    }
    return { status: 200, body };
  } catch (error) {
    if (error instanceof HttpError) {
      return { status: error.status, body: { error: { code: error.code, message: error.message } } };
    }
    const code = errorCode(error);
    const status = error instanceof CairnError ? (STATUS[code] ?? 500) : 500;
    return { status, body: { error: { code, message: errorMessage(error), hint: errorHint(error) } } };
  }
}
