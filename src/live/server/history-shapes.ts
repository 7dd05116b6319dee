/**
 * The questions the history API asks the application layer, and a compile-time check that the app's answers
 * still carry every field the page reads (`../history-types.ts`). If the app renames a field, this file stops
 * compiling instead of the page showing blanks.
 */

import type { AiResume } from "../../app/ai-resume.ts";
import type { AskAnswer } from "../../app/ask-answer.ts";
import type { ReadCairn } from "../../app/cairn.ts";
import type { HistoryQuestion } from "../../app/catalog/routes.ts";
import type { EventWithChain } from "../../app/event-chain.ts";
import type {
  AiResumeView,
  AskAnswerView,
  BriefAnswer,
  ChainStep,
  ConversationAnswer,
  EdgeView,
  EventView,
  SearchHitView,
  SessionSummary,
  ThreadsAnswer,
  ThreadTimelineAnswer,
  TimelineAnswer,
} from "../history-types.ts";
import type { UsageAnswerView } from "../usage-types.ts";

export type HistoryApp = Pick<ReadCairn, HistoryQuestion | "event">;

type Answer<K extends keyof HistoryApp> = Awaited<ReturnType<HistoryApp[K]>>;
type Fits<A, B> = [A] extends [B] ? true : false;

// Each line fails to compile when the app's answer no longer fits what the page reads.
export const shapesFit: [
  Fits<Answer<"sessions">[number], SessionSummary>,
  Fits<Answer<"search">["hits"][number], SearchHitView>,
  Fits<Answer<"timeline">, TimelineAnswer>,
  Fits<Answer<"event">["event"], EventView>,
  Fits<Answer<"event">["edges"]["out"][number], EdgeView>,
  Fits<Answer<"brief">, BriefAnswer>,
  Fits<Answer<"conversation">, ConversationAnswer>,
  Fits<Answer<"threads">, ThreadsAnswer>,
  Fits<Answer<"threadTimeline">, ThreadTimelineAnswer>,
  Fits<EventWithChain["chain"][number], ChainStep>,
  Fits<AskAnswer, AskAnswerView>,
  Fits<Omit<AiResume, "brief"> & { session_id: string; brief_tokens: number; must_keep: number }, AiResumeView>,
  Fits<Answer<"usage">, UsageAnswerView>,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true];
