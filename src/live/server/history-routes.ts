/**
 * The history API under `/api/history/`: read-only JSON over the index, for the page's history views. The routes
 * are the catalog's (`src/app/catalog/routes.ts`): a path names a question, its `:field` segments and query string
 * are the question's input fields under their own names, read by the types of the question's input schema; the app
 * checks them, answers and shapes the answer. Errors become statuses through the boundary's one table
 * (`http-error.ts`). Access is the page's: Host allowlist, then the session cookie or the bearer token; a
 * cross-origin `Origin` is refused like on every other route.
 */

import { HISTORY_ROUTES, type HistoryQuestion, matchHistoryPath } from "../../app/catalog/routes.ts";
import { inputSchema } from "../../app/catalog-schemas.ts";
import type { HistoryApp } from "./history-shapes.ts";
import { errorAnswer } from "./http-error.ts";

export type HistoryAnswer = { status: number; body: unknown };

/** What the page gets when it leaves a field out: bounded windows, not a whole index. */
const DEFAULTS: Partial<Record<HistoryQuestion, Record<string, unknown>>> = {
  search: { limit: 30 },
  sessions: { limit: 50 },
  timeline: { limit: 500 },
  threads: { limit: 100 },
  threadTimeline: { limit: 500 },
};

const TRUE = new Set(["1", "true", "yes"]);

/** The routes whose question takes no input. */
const NO_INPUT: ReadonlySet<HistoryQuestion> = new Set(
  HISTORY_ROUTES.filter((r) => "bare" in r && r.bare).map((r) => r.question),
);

/** The query string as the question's input fields, each read by its type in the schema. */
function readQuery(question: HistoryQuestion, query: URLSearchParams): Record<string, unknown> | undefined {
  // A question without input (the overview) is asked with none: its query string means nothing.
  if (NO_INPUT.has(question)) return undefined;
  const properties = (inputSchema(question)["properties"] ?? {}) as Record<string, { type?: string }>;
  const input: Record<string, unknown> = { ...DEFAULTS[question] };
  for (const [name, field] of Object.entries(properties)) {
    const values = query.getAll(name);
    const raw = values[0]?.trim();
    if (raw === undefined || raw === "") continue;
    switch (field.type) {
      case "integer":
      case "number": {
        const n = Number(raw);
        input[name] = Number.isFinite(n) ? n : raw;
        break;
      }
      case "boolean":
        input[name] = TRUE.has(raw);
        break;
      case "array":
        input[name] = values
          .flatMap((v) => v.split(","))
          .map((v) => v.trim())
          .filter(Boolean);
        break;
      default:
        input[name] = raw;
    }
  }
  return input;
}

/** Answers one GET under `/api/history/` (its segments after that, already split and decoded). */
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
  const match = matchHistoryPath(segments);
  if (!match) {
    const known = HISTORY_ROUTES.map((r) => `/api/history/${r.path}`).join(", ");
    return { status: 404, body: { error: { code: "not_found", message: `no such history request; ask ${known}` } } };
  }
  try {
    const fields = readQuery(match.question, query);
    const input = fields === undefined ? undefined : { ...fields, ...match.fields };
    const started = performance.now();
    const ask = app[match.question] as (input: unknown) => unknown;
    const body = await ask(input);
    return match.question === "search"
      ? { status: 200, body: { ...(body as object), took_ms: Math.round(performance.now() - started) } }
      : { status: 200, body };
  } catch (error) {
    return errorAnswer(error);
  }
}
