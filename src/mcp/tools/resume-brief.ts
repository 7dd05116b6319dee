/** `resume_brief`: the resume engine's cited brief of a session, under a budget this server caps. */
import type { z } from "zod";
import type { BriefJson } from "../../app/brief.ts";
import { clip, jsonSize, MAX_RESPONSE_CHARS, oneLine } from "../bounded-output.ts";
import { cite } from "../format.ts";
import { BRIEF_TOKENS_MAX } from "../limits.ts";
import type { CairnTool } from "../tool.ts";
import { READ_ONLY } from "../tool-boundary.ts";
import type { inputSchema } from "./resume-brief-schema.ts";

/** The largest brief this server returns: about 12–16k characters, inside the response bound with its notes. */

export { BRIEF_TOKENS_MAX } from "../limits.ts";

const DESCRIPTION = `Get a cited brief for resuming an indexed session (Claude Code, Codex or pi): the ledger first (goal and latest request verbatim, the user's constraints, decisions, latest file states, repeated failures collapsed with counts, the last check with failing tests, open plan items, the step), then recent and relevant context selected under a token budget. Every line cites the events it came from as [e:ID]; get_event resolves them. Use it to pick up work another session left, or to recall where a session stood.
Without session (or with session="latest") it takes the latest main session: of the folder given as cwd, or of any folder. at=EVENT_ID gives the brief as of that event, step=N as of step N's checkpoint. The budget defaults to a tenth of the session, at most ${BRIEF_TOKENS_MAX} tokens here (the CLI, 'cairn resume', builds larger ones).`;

type Args = z.infer<z.ZodObject<typeof inputSchema>>;

export const resumeBriefTool: CairnTool<Args> = {
  name: "resume_brief",
  title: "Resume brief",
  description: DESCRIPTION,
  annotations: READ_ONLY,
  handler: (ctx) => async (args) => {
    // The question's rules (catalog/brief.ts) refuse a budget with a ratio, or an event with a step.
    const brief = await ctx.cairn.brief({ ...args, cap: BRIEF_TOKENS_MAX });
    return render(brief);
  },
};

function render(b: BriefJson) {
  const ids = [...new Set(b.citations.map((c) => c.event_id))];
  const atOrdinal = b.citations.find((c) => c.event_id === b.at)?.ordinal;
  const v = b.validation;
  const footer = [
    "---",
    `Brief of session ${b.session_id} as of ${cite(b.at)}${atOrdinal === undefined ? "" : ` (@${atOrdinal})`}: ${b.tokens} tokens in a ${b.budget_tokens}-token budget (the session up to there: ~${b.original_tokens} tokens). Validation ${v.ok ? "ok" : "NOT ok"}: coverage ${v.coverage.toFixed(2)}, entity overlap ${v.entity_overlap.toFixed(2)}${v.missing.length > 0 ? `, missing ${v.missing.length}` : ""}.${b.fallback.length > 0 ? ` Fallback: ${b.fallback.map((f) => f.step).join(" → ")}.` : ""}`,
    `${ids.length} events cited; get_event resolves any [e:ID], session_timeline around=ID shows its neighbours.`,
    ...(b.budget_note ? [`note: ${b.budget_note}`] : []),
  ].join("\n");
  const body = clip(b.text, MAX_RESPONSE_CHARS - footer.length - 200);
  const truncated =
    body.cut > 0
      ? `${body.cut} characters of the brief cut for size; ask for a smaller budget_tokens for a complete brief`
      : null;
  const text = `${body.text.trimEnd()}${truncated ? `\n… ${truncated}` : ""}\n\n${footer}`;
  const bounded = (x: BriefJson["validation"]) => ({
    ok: x.ok,
    coverage: x.coverage,
    entity_overlap: x.entity_overlap,
    missing: x.missing.slice(0, 20).map((m) => oneLine(m, 200)),
  });
  // must_keep repeats facts the text already holds, and the view is the same brief laid out for a person: the
  // answer's room is better spent on the text
  const { must_keep: _facts, view: _view, ...shown } = b;
  const structured = {
    ...shown,
    text: body.text,
    sections: b.sections.map((sec) => ({ ...sec, cites: sec.cites.slice(0, 5) })),
    citations: [] as BriefJson["citations"],
    citations_total: b.citations.length,
    validation: bounded(v),
    fallback: b.fallback.map((f) => ({ ...f, validation: bounded(f.validation) })),
    truncated,
  };
  // The text cites every id inline; the list holds as many as fit beside it.
  let room = MAX_RESPONSE_CHARS - jsonSize(structured) - 100;
  for (const c of b.citations) {
    room -= jsonSize(c) + 1;
    if (room < 0) break;
    structured.citations.push(c);
  }
  return { text, structured };
}
