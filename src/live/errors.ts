import type { NackCode } from "./protocol.ts";

/**
 * The one error type of the live boundary. Controller methods throw it for refusals a caller can act on
 * (busy, stale epoch, …); the server turns it into a `nack` with the same code.
 */
export class LiveError extends Error {
  override name = "LiveError";
  readonly code: NackCode;

  constructor(code: NackCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

export { errorMessage } from "../common/errors.ts";
