/**
 * The HTTP boundary's one error type and its one table: what the routes throw (`HttpError`), and how any error a
 * question raises (`CairnError`: a usage mistake, an id that names nothing or several things, no index) becomes a
 * status and the JSON body every route answers with. An ambiguous id's body lists the candidates, so the page can
 * offer them as links.
 */
import { CairnError, type ErrorCode, errorCode, errorHint, errorMessage } from "../../common/errors.ts";

export class HttpError extends Error {
  override name = "HttpError";
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export const ERROR_STATUS: Record<ErrorCode, number> = {
  usage: 400,
  bad_query: 400,
  ambiguous_id: 409,
  not_found: 404,
  no_index: 404,
  index_unavailable: 503,
  index_busy: 503,
  no_model: 503,
  interrupted: 503,
  failure: 500,
};

export interface ErrorBody {
  error: {
    code: string;
    message: string;
    hint?: string | null;
    /** An ambiguous id's candidates, and what they are ids of. */
    candidates?: string[];
    kind?: string;
  };
}

/** Any error as the status and body a route answers with; an error that is not cairn's says nothing of itself. */
export function errorAnswer(error: unknown): { status: number; body: ErrorBody } {
  if (error instanceof HttpError)
    return { status: error.status, body: { error: { code: error.code, message: error.message } } };
  if (!(error instanceof CairnError))
    return { status: 500, body: { error: { code: "internal", message: "internal error" } } };
  const code = errorCode(error);
  const { candidates, kind } = error as { candidates?: unknown; kind?: unknown };
  return {
    status: ERROR_STATUS[code],
    body: {
      error: {
        code,
        message: errorMessage(error),
        hint: errorHint(error) ?? null,
        ...(Array.isArray(candidates) && candidates.length > 0 ? { candidates: candidates as string[] } : {}),
        ...(Array.isArray(candidates) && candidates.length > 0 && typeof kind === "string" ? { kind } : {}),
      },
    },
  };
}
