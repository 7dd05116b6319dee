/** The one error type of the HTTP boundary: thrown by checks and routes, rendered by the app's one handler. */
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
