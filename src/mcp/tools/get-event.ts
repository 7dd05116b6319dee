/** `get_event`: one event whole (its text paged), with its edges in and out and what they point at. */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { ResolvedEdge } from "../../app/event.ts";
import type { SessionEvent } from "../../topology/types.ts";
import { clip, fitRange, jsonSize, listBudget, MAX_RESPONSE_CHARS, oneLine } from "../bounded-output.ts";
import type { McpContext } from "../context.ts";
import { cite, dotted, shortTime } from "../format.ts";
import { guarded, READ_ONLY } from "../tool-boundary.ts";

export const EVENT_CHARS_MAX = 12_000;
const META_VALUE_MAX = 500;
const META_MAX = 2_000;

const DESCRIPTION = `Get one event of the indexed history by id (or a unique prefix): a search hit, a timeline row, or an [e:ID] cited in a resume brief. Returns the event's session, position, type, tool, command, file, status, source file and line, its text (long text is paged: the answer gives the next offset), and its edges in and out (the tool call behind a result, the result of a call, the error signature, files and commands it touches, the next event), each resolved to what it points at.`;

const inputSchema = {
  event_id: z.string().min(4).max(100).describe("event id or a unique prefix of one; [e:ID] is accepted"),
  offset: z
    .number()
    .int()
    .min(0)
    .default(0)
    .describe("first character of the text to return (to page through long text)"),
  max_chars: z
    .number()
    .int()
    .min(100)
    .max(EVENT_CHARS_MAX)
    .default(6_000)
    .describe(`characters of text to return (100–${EVENT_CHARS_MAX})`),
};

const edge = z.object({
  edge_type: z.string(),
  other: z.string().describe("the id at the other end: an event, an entity (kind:key) or a session"),
  other_kind: z.enum(["event", "entity", "session", "unknown"]),
  other_type: z.string().nullable().describe("event type, entity kind or session provider"),
  display: z.string().describe("first line of the event, the entity's name, or the session's title"),
  meta: z.record(z.string(), z.unknown()).optional(),
});

const outputSchema = {
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

type EdgeData = z.infer<typeof edge>;

export function registerGetEvent(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    "get_event",
    { title: "Get one event", description: DESCRIPTION, inputSchema, outputSchema, annotations: READ_ONLY },
    guarded(({ event_id, offset, max_chars }) => {
      const { event: e, edges } = ctx.cairn.event(event_id);
      const start = Math.min(offset, e.text.length);
      let slice = clip(e.text.slice(start), max_chars).text;
      // Escapes can make JSON text several times longer than the characters it holds.
      while (jsonSize(slice) > EVENT_CHARS_MAX + 2_000) slice = clip(slice, Math.floor(slice.length * 0.8)).text;
      const end = start + slice.length;
      const nextOffset = end < e.text.length ? end : null;
      const { meta, omitted } = boundedMeta(e.meta);
      const out = edges.out.map(boundedEdge);
      const inn = edges.in.map(boundedEdge);
      const edgeText = (d: EdgeData, dir: "→" | "←") => {
        // An entity's id repeats its name; its kind and name say it once.
        const what =
          d.other_kind === "event"
            ? `${cite(d.other)} ${d.other_type}`
            : d.other_kind === "entity"
              ? `${d.other_type}`
              : `${d.other_kind} ${d.other}`;
        return `  ${dir} ${d.edge_type} ${what}${d.display ? ` "${d.display}"` : ""}`;
      };
      const all = [...out.map((d) => ({ d, t: edgeText(d, "→") })), ...inn.map((d) => ({ d, t: edgeText(d, "←") }))];
      const used = { text: slice.length + 1_000, json: jsonSize(slice) + jsonSize(meta) + 1_000 };
      const fit = fitRange(
        all.map(({ d, t }) => ({ text: t.length + 1, json: jsonSize(d) + 1 })),
        0,
        listBudget(used),
      );
      const keptOut = out.slice(0, Math.min(fit.end, out.length));
      const keptIn = inn.slice(0, Math.max(0, fit.end - out.length));
      const edgesCut =
        fit.end < all.length
          ? `${all.length - fit.end} of ${all.length} edges left out for size; ask for less text (max_chars) to see more`
          : null;

      const facts = [
        `event ${cite(e.event_id)} ${dotted(`${e.event_type}${e.role ? ` (${e.role})` : ""}`, e.status, e.provider, shortTime(e.timestamp))}`,
        `session ${e.session_id} @${e.ordinal} (turn ${e.turn}) · source ${e.source_file}:${e.source_line}`,
        ...(e.tool_name ? [`tool ${e.tool_name}`] : []),
        ...(e.command ? [`command ${oneLine(e.command, 300)}`] : []),
        ...(e.file_path ? [`file ${e.file_path}`] : []),
        ...(e.parent_event_id ? [`parent ${cite(e.parent_event_id)}`] : []),
      ];
      const lines = [
        ...facts,
        "",
        `--- text, characters ${start}–${end} of ${e.text.length} ---`,
        slice,
        nextOffset === null
          ? "--- end of text ---"
          : `--- ${e.text.length - end} more characters: get_event event_id=${e.event_id} offset=${nextOffset} ---`,
      ];
      if (Object.keys(meta).length > 0) lines.push(`meta ${oneLine(JSON.stringify(meta), 1_000)}`);
      if (all.length > 0) lines.push("", "edges (→ out, ← in):", ...all.slice(0, fit.end).map((x) => x.t));
      if (edgesCut) lines.push(`… ${edgesCut}`);
      return {
        text: clip(lines.join("\n"), MAX_RESPONSE_CHARS).text,
        structured: {
          event: eventFields(e),
          meta,
          meta_omitted: omitted,
          text: slice,
          text_range: { offset: start, end, length: e.text.length },
          next_offset: nextOffset,
          edges: { out: keptOut, in: keptIn },
          edges_cut: edgesCut,
        },
      };
    }),
  );
}

function eventFields(e: SessionEvent) {
  return {
    event_id: e.event_id,
    session_id: e.session_id,
    provider: e.provider,
    ordinal: e.ordinal,
    turn: e.turn,
    timestamp: e.timestamp,
    role: e.role,
    event_type: e.event_type,
    tool_name: e.tool_name,
    command: e.command === null ? null : oneLine(e.command, 1_000),
    file_path: e.file_path,
    status: e.status,
    parent_event_id: e.parent_event_id,
    source_file: e.source_file,
    source_line: e.source_line,
  };
}

/** An edge as this tool returns it: its meta only when small. */
function boundedEdge(x: ResolvedEdge): EdgeData {
  const { meta, ...rest } = x;
  return { ...rest, ...(meta && jsonSize(meta) <= 300 ? { meta } : {}) };
}

/** The event's meta without values too large to be worth their room, and the names of those left out. */
function boundedMeta(meta: Record<string, unknown>): { meta: Record<string, unknown>; omitted: string[] } {
  const kept: Record<string, unknown> = {};
  const omitted: string[] = [];
  let size = 2;
  for (const [k, v] of Object.entries(meta)) {
    const n = jsonSize(v ?? null) + k.length + 4;
    if (n > META_VALUE_MAX || size + n > META_MAX) omitted.push(k);
    else {
      kept[k] = v;
      size += n;
    }
  }
  return { meta: kept, omitted };
}
