/** The zod definitions of `get_event`'s input and output, for the SDK server and the test that keeps the JSON schemas (tool-schemas.ts) equal to them. */

import { z } from "zod";
import * as catalog from "../../app/catalog/inputs.ts";
import { EVENT_CHARS_MAX } from "../limits.ts";

/** The catalog's `event` input, its text paged by default to what one answer holds. */
export const inputSchema = {
  event_id: catalog.event.event_id,
  offset: catalog.event.offset.unwrap().default(0),
  max_chars: catalog.event.max_chars
    .unwrap()
    .min(100)
    .max(EVENT_CHARS_MAX)
    .default(6_000)
    .describe(`characters of text to return (100–${EVENT_CHARS_MAX})`),
};

export const edge = z.object({
  edge_type: z.string(),
  other: z.string().describe("the id at the other end: an event, an entity (kind:key) or a session"),
  other_kind: z.enum(["event", "entity", "session", "unknown"]),
  other_type: z.string().nullable().describe("event type, entity kind or session provider"),
  display: z.string().describe("first line of the event, the entity's name, or the session's title"),
  meta: z.record(z.string(), z.unknown()).optional(),
});

export const outputSchema = {
  event: z.object({
    event_id: z.string(),
    session_id: z.string(),
    provider: z.string(),
    ordinal: z.number(),
    turn: z.number(),
    timestamp: z.string().nullable(),
    role: z.string().nullable(),
    event_type: z.string(),
    tool_name: z.string().nullable(),
    command: z.string().nullable(),
    file_path: z.string().nullable(),
    status: z.string().nullable(),
    parent_event_id: z.string().nullable(),
    source_file: z.string(),
    source_line: z.number(),
  }),
  meta: z.record(z.string(), z.unknown()),
  meta_omitted: z.array(z.string()).describe("meta keys left out for size"),
  text: z.string(),
  text_range: z.object({ offset: z.number(), end: z.number(), length: z.number() }),
  next_offset: z.number().nullable().describe("call again with this offset for the rest of the text"),
  edges: z.object({ out: z.array(edge), in: z.array(edge) }),
  edges_cut: z.string().nullable(),
};
