/** `get_event`: one event whole (its text paged), with its edges in and out and what they point at. */
import type { z } from "zod";
import type { ResolvedEdge } from "../../app/event.ts";
import type { SessionEvent } from "../../topology/types.ts";
import { clip, fitRange, jsonSize, listBudget, MAX_RESPONSE_CHARS, oneLine } from "../bounded-output.ts";
import { cite, dotted, shortTime } from "../format.ts";
import { EVENT_CHARS_MAX } from "../limits.ts";
import type { CairnTool } from "../tool.ts";
import { READ_ONLY } from "../tool-boundary.ts";
import type { edge, inputSchema } from "./get-event-schema.ts";

const META_VALUE_MAX = 500;
const META_MAX = 2_000;

export { EVENT_CHARS_MAX } from "../limits.ts";

const DESCRIPTION = `Get one event of the indexed history by id (or a unique prefix): a search hit, a timeline row, or an [e:ID] cited in a resume brief. Returns the event's session, position, type, tool, command, file, status, source file and line, its text (long text is paged: the answer gives the next offset), and its edges in and out (the tool call behind a result, the result of a call, the error signature, files and commands it touches, the next event), each resolved to what it points at.`;

type EdgeData = z.infer<typeof edge>;
type Args = z.infer<z.ZodObject<typeof inputSchema>>;

export const getEventTool: CairnTool<Args> = {
  name: "get_event",
  title: "Get one event",
  description: DESCRIPTION,
  annotations: READ_ONLY,
  handler:
    (ctx) =>
    ({ event_id, offset, max_chars }) => {
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
    },
};

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
