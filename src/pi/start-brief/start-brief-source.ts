/**
 * The seam between pi's session-start brief and cairn's index: the extension asks a `StartBriefSource` for the
 * brief (a process of cairn's own, or the index in this one) and never builds it itself.
 */

export interface StartBriefRequest {
  cwd: string;
  sessionId: string;
  /** The new session's file (it may not be written yet): the project's other sessions are beside it. */
  sessionFile: string | undefined;
}

export interface StartBriefSource {
  /** The brief, or null when this start gets none; never throws (its own errors go to `cairn hooks status`). */
  startBrief(request: StartBriefRequest): Promise<string | null>;
}
