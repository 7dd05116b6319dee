/** `resume_brief`: the resume engine's cited brief of a session, under a budget this server caps. */
import { resolve } from "node:path";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { ResumeBrief } from "../../resume/brief-types.ts";
import { budgetFor, createResumeEngine } from "../../resume/engine.ts";
import { resolveSession } from "../../resume/session-ref.ts";
import { clip, jsonSize, MAX_RESPONSE_CHARS, oneLine } from "../bounded-output.ts";
import type { McpContext } from "../context.ts";
import { cite } from "../format.ts";
import { resolveEvent } from "../resolve.ts";
import { guarded, READ_ONLY } from "../tool-boundary.ts";

/** The largest brief this server returns: about 12–16k characters, inside the response bound with its notes. */
export const BRIEF_TOKENS_MAX = 4_000;

const DESCRIPTION = `Get a cited brief for resuming an indexed session (Claude Code, Codex or pi): the ledger first (goal and latest request verbatim, the user's constraints, decisions, latest file states, repeated failures collapsed with counts, the last check with failing tests, open plan items, the step), then recent and relevant context selected under a token budget. Every line cites the events it came from as [e:ID]; get_event resolves them. Use it to pick up work another session left, or to recall where a session stood.
Without session (or with session="latest") it takes the latest main session: of the folder given as cwd, or of any folder. at=EVENT_ID gives the brief as of that event, step=N as of step N's checkpoint. The budget defaults to a tenth of the session, at most ${BRIEF_TOKENS_MAX} tokens here (the CLI, 'cairn resume', builds larger ones).`;

const inputSchema = {
  session: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('session id, a unique prefix of one, or "latest" (the default)'),
  cwd: z
    .string()
    .min(1)
    .max(4_096)
    .optional()
    .describe("with latest: the project folder whose latest main session to brief (e.g. your working directory)"),
  budget_tokens: z
    .number()
    .int()
    .min(500)
    .max(BRIEF_TOKENS_MAX)
    .optional()
    .describe(`brief size in tokens (500–${BRIEF_TOKENS_MAX})`),
  ratio: z
    .number()
    .gt(0)
    .max(1)
    .optional()
    .describe(`brief size as a share of the session (e.g. 0.05), capped at ${BRIEF_TOKENS_MAX} tokens`),
  at: z.string().min(4).max(100).optional().describe("event id (or prefix): the brief as of that event"),
  step: z.number().int().min(0).optional().describe("the brief as of step N's checkpoint, with that step's profile"),
};

const outputSchema = {
  session_id: z.string(),
  at: z.string().describe("the event the brief is as of"),
  step: z.number().nullable(),
  budget_tokens: z.number(),
  tokens: z.number(),
  original_tokens: z.number().describe("estimated tokens of the session up to `at`"),
  ratio: z.number(),
  text: z.string().describe("the brief (markdown), citing events as [e:ID]"),
  cited_event_ids: z.array(z.string()),
  citations_total: z.number(),
  validation: z.object({
    ok: z.boolean(),
    coverage: z.number(),
    entity_overlap: z.number(),
    missing: z.array(z.string()),
  }),
  fallback: z.array(
    z.object({ step: z.string(), budget_tokens: z.number(), at: z.string(), tokens: z.number(), ok: z.boolean() }),
  ),
  source: z.object({ file: z.string(), first_line: z.number(), last_line: z.number() }),
  budget_note: z.string().nullable(),
  truncated: z.string().nullable(),
};

export function registerResumeBrief(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    "resume_brief",
    { title: "Resume brief", description: DESCRIPTION, inputSchema, outputSchema, annotations: READ_ONLY },
    guarded(async (args) => {
      if (args.budget_tokens !== undefined && args.ratio !== undefined)
        throw new Error("give budget_tokens or ratio, not both");
      if (args.at !== undefined && args.step !== undefined) throw new Error("give at or step, not both");
      const store = ctx.store();
      const latest = args.session === undefined || args.session === "latest";
      const sessionId =
        !latest && args.session
          ? resolveSession(store, { id: args.session }).session_id
          : args.at !== undefined && args.cwd === undefined
            ? resolveEvent(store, args.at).session_id
            : resolveSession(store, {
                latest: true,
                ...(args.cwd !== undefined ? { cwd: resolve(ctx.cwd, args.cwd) } : {}),
              }).session_id;
      // The tokenizer's tables take most of a second to load: only a brief pays for them, not the server's start.
      const { createTokenCounter } = await import("../../resume/tokens.ts");
      const engine = createResumeEngine({ store, counter: createTokenCounter() });
      const build = (budget: number) =>
        engine.brief({
          sessionId,
          budget,
          maxBudget: BRIEF_TOKENS_MAX,
          ...(args.at !== undefined ? { at: args.at } : {}),
          ...(args.step !== undefined ? { step: args.step } : {}),
        });
      let brief: ResumeBrief;
      let budgetNote: string | null = null;
      if (args.budget_tokens !== undefined) brief = build(args.budget_tokens);
      else {
        // The session's size is known only once a brief is built: build at the cap, then smaller if the default
        // (or the ratio) asks for less.
        brief = build(BRIEF_TOKENS_MAX);
        const wanted = budgetFor(args.ratio !== undefined ? { ratio: args.ratio } : {}, brief.original_tokens);
        if (wanted < BRIEF_TOKENS_MAX) brief = build(wanted);
        else if (wanted > BRIEF_TOKENS_MAX)
          budgetNote = `${args.ratio !== undefined ? `ratio ${args.ratio}` : "the default budget"} asks for ${wanted} tokens; this server caps briefs at ${BRIEF_TOKENS_MAX} (run 'cairn resume ${brief.session_id}' for the larger brief)`;
      }
      return render(brief, budgetNote);
    }),
  );
}

function render(b: ResumeBrief, budgetNote: string | null) {
  const ids = [...new Set(b.citations.map((c) => c.event_id))];
  const atOrdinal = b.citations.find((c) => c.event_id === b.at)?.ordinal;
  const v = b.validation;
  const footer = [
    "---",
    `Brief of session ${b.session_id} as of ${cite(b.at)}${atOrdinal === undefined ? "" : ` (@${atOrdinal})`}: ${b.tokens} tokens in a ${b.budget_tokens}-token budget (the session up to there: ~${b.original_tokens} tokens). Validation ${v.ok ? "ok" : "NOT ok"}: coverage ${v.coverage.toFixed(2)}, entity overlap ${v.entity_overlap.toFixed(2)}${v.missing.length > 0 ? `, missing ${v.missing.length}` : ""}.${b.fallback.length > 0 ? ` Fallback: ${b.fallback.map((f) => f.step).join(" → ")}.` : ""}`,
    `${ids.length} events cited; get_event resolves any [e:ID], session_timeline around=ID shows its neighbours.`,
    ...(budgetNote ? [`note: ${budgetNote}`] : []),
  ].join("\n");
  const body = clip(b.text, MAX_RESPONSE_CHARS - footer.length - 200);
  const truncated =
    body.cut > 0
      ? `${body.cut} characters of the brief cut for size; ask for a smaller budget_tokens for a complete brief`
      : null;
  const text = `${body.text.trimEnd()}${truncated ? `\n… ${truncated}` : ""}\n\n${footer}`;
  const structured = {
    session_id: b.session_id,
    at: b.at,
    step: b.step,
    budget_tokens: b.budget_tokens,
    tokens: b.tokens,
    original_tokens: b.original_tokens,
    ratio: b.ratio,
    text: body.text,
    cited_event_ids: [] as string[],
    citations_total: ids.length,
    validation: {
      ok: v.ok,
      coverage: v.coverage,
      entity_overlap: v.entity_overlap,
      missing: v.missing.slice(0, 20).map((m) => oneLine(m, 200)),
    },
    fallback: b.fallback.map((f) => ({
      step: f.step,
      budget_tokens: f.budget_tokens,
      at: f.at,
      tokens: f.tokens,
      ok: f.validation.ok,
    })),
    source: b.source,
    budget_note: budgetNote,
    truncated,
  };
  // The text cites every id inline; the list holds as many as fit beside it.
  let room = MAX_RESPONSE_CHARS - jsonSize(structured) - 100;
  for (const id of ids) {
    room -= id.length + 3;
    if (room < 0) break;
    structured.cited_event_ids.push(id);
  }
  return { text, structured };
}
