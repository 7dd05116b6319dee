/**
 * The Ask tab and AI Resume: a question (or a session) goes to the model through the application layer's ask
 * service, the same path `cairn ask` and `cairn resume --ai` take; the answer streams in, then its citations are
 * checked and the cited events listed, each leading to its event. With no model configured, the same message and
 * hint as the CLI's.
 */
import type { AiResume } from "../app/ai-resume.ts";
import type { AskAnswer } from "../app/ask-answer.ts";
import type { AskService } from "../app/ask-service.ts";
import { errorHint, errorMessage } from "../common/errors.ts";
import { plural } from "../common/plural.ts";
import { briefLines, type Line, oneLine, providerCell, shortTime, type Wrap } from "./lines.ts";
import { markdownLines } from "./markdown-lines.ts";
import type { Style } from "./style.ts";

interface Streamed<R> {
  text: string;
  result: R | null;
  error: { message: string; hint: string | null } | null;
  controller: AbortController;
}

export interface AskState extends Streamed<AskAnswer> {
  question: string;
  /** The session the question is limited to, or null for all history. */
  session: string | null;
}

export interface AiResumeState extends Streamed<AiResume> {
  sessionId: string;
}

function stream<R, S extends Streamed<R>>(
  state: S,
  run: (signal: AbortSignal, onText: (delta: string) => void) => Promise<R>,
  render: () => void,
): S {
  const onText = (delta: string) => {
    state.text += delta;
    render();
  };
  run(state.controller.signal, onText).then(
    (result) => {
      state.result = result;
      render();
    },
    (error: unknown) => {
      if (!state.controller.signal.aborted) state.error = { message: errorMessage(error), hint: errorHint(error) };
      render();
    },
  );
  return state;
}

export function startAsk(service: AskService, question: string, session: string | null, render: () => void): AskState {
  const state: AskState = { question, session, text: "", result: null, error: null, controller: new AbortController() };
  return stream(
    state,
    (signal, onText) => service.ask({ question, ...(session ? { session } : {}), signal, onText }),
    render,
  );
}

export function startAiResume(service: AskService, sessionId: string, render: () => void): AiResumeState {
  const state: AiResumeState = { sessionId, text: "", result: null, error: null, controller: new AbortController() };
  return stream(state, (signal, onText) => service.resume({ session: sessionId, signal, onText }), render);
}

function errorLines(e: { message: string; hint: string | null }, width: number, style: Style, wrap: Wrap): Line[] {
  const out = wrap(e.message, width).map((w) => ({ text: style.red(w) }));
  if (e.hint) for (const w of wrap(`hint: ${e.hint}`, width)) out.push({ text: style.dim(w) });
  return out;
}

export function askLines(st: AskState | null, width: number, style: Style, wrap: Wrap): Line[] {
  if (!st)
    return [{ text: "A asks your history a question (limited to the open session when its pane has the focus)." }];
  const scope = st.session ? `session ${st.session}` : "all history";
  const out: Line[] = [{ text: style.bold(`Q: ${oneLine(st.question)}`) }, { text: style.dim(`asked of ${scope}`) }];
  out.push({ text: "" });
  if (st.error) return [...out, ...errorLines(st.error, width, style, wrap)];
  const r = st.result;
  if (!r) {
    if (st.text === "") return [...out, { text: style.dim("gathering the evidence and asking the model…") }];
    return [...out, ...briefLines(st.text, width, wrap), { text: style.dim("… (streaming)") }];
  }
  out.push(...briefLines(r.answer.trimEnd(), width, wrap), { text: "" });
  const c = r.check;
  const verdict = `checked: ${c.supported} of ${c.claims} claims cite evidence that supports them`;
  out.push({ text: c.supported === c.claims ? style.green(verdict) : style.red(verdict) });
  for (const s of c.sentences) {
    if (s.verdict === "supported" || s.verdict === "no_claim") continue;
    const what = s.verdict === "uncited" ? "uncited" : "unsupported";
    for (const w of wrap(`${what}: ${oneLine(s.text)}`, width)) out.push({ text: style.red(w) });
    for (const cite of s.citations)
      out.push({ text: style.dim(`  [e:${cite.event_id}] ${WHY[cite.verdict]}`), target: cite.event_id });
  }
  if (r.cited.length > 0) {
    out.push({ text: "" }, { text: style.bold("Cited events") });
    for (const e of r.cited) {
      const outside = e.in_pack ? "" : style.red(" not in the pack");
      const kind = `${e.event_type}${e.status ? ` (${e.status})` : ""}`;
      out.push({
        text: `  ${shortTime(e.timestamp)} ${providerCell(e.provider)} ${kind} ${style.dim(e.event_id)}${outside} ${e.line}`,
        target: e.event_id,
      });
    }
  }
  out.push({
    text: style.dim(
      `${r.model}; ${plural(r.pack.items.length, "event")} in the pack, ${plural(r.pack.tokens, "token")}`,
    ),
  });
  return out;
}

const WHY: Record<AskAnswer["check"]["sentences"][number]["citations"][number]["verdict"], string> = {
  ok: "supports it",
  not_in_pack: "is an event, but not one the model was given",
  unknown_id: "is no event in the index (invented)",
  no_shared_terms: "shares no key term with the sentence",
};

/** The Brief tab during and after AI Resume: the verdict first, then the brief to hand over. */
export function aiResumeLines(st: AiResumeState, width: number, style: Style, wrap: Wrap): Line[] {
  if (st.error) return [{ text: style.bold("AI Resume") }, ...errorLines(st.error, width, style, wrap)];
  const r = st.result;
  if (!r) {
    const head = { text: style.bold("AI Resume: the model is writing a brief from the ledger…") };
    return st.text === "" ? [head] : [head, ...markdownLines(st.text, width, style, wrap).lines];
  }
  const out: Line[] = [];
  if (r.chosen === "ai")
    out.push({
      text: style.green(`AI Resume accepted (${r.model}): ${r.ai_tokens} tokens, every fact and citation kept`),
    });
  else {
    out.push({ text: style.yellow(`AI Resume fell back to the deterministic brief (${r.model}):`) });
    for (const reason of r.check.reasons)
      for (const w of wrap(`- ${reason}`, width)) out.push({ text: style.yellow(w) });
  }
  out.push({ text: "" }, ...markdownLines(r.text.trimEnd(), width, style, wrap).lines);
  return out;
}
