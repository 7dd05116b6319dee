/**
 * The seam between `/handoff` and cairn's resume engine. The extension never builds briefs itself; it asks a
 * `HandoffBriefSource` for one. Until the resume engine is wired in, no source is given and `/handoff` says so.
 */

export interface HandoffBriefRequest {
  /** Absolute path of the pi session file to brief (it may still be unflushed if no assistant reply exists yet). */
  sessionFile: string;
  sessionId: string;
  /** Leaf of the branch the user is on; the brief covers root → leaf. */
  leafId: string | null;
  cwd: string;
  /** What the next session should do, as the user typed it after `/handoff`. */
  direction: string;
  signal?: AbortSignal;
}

export interface HandoffBrief {
  /** The brief as Markdown; every line cites the event ids it came from. */
  markdown: string;
  /** Every event id cited in `markdown`, for the handoff entry's details. */
  citedEventIds: readonly string[];
}

export interface HandoffBriefSource {
  /** Build a cited brief of the session. Throwing (or rejecting) aborts the handoff before anything changes. */
  buildBrief(request: HandoffBriefRequest): Promise<HandoffBrief>;
}
