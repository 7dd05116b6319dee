/**
 * The catalog: every question cairn answers, one file each. `createCairn` makes each a method of the app, whose
 * answer passes the shaping step; the surfaces ask these and nothing else. Add a question here after its file.
 */
import { aiResume } from "./ai-resume.ts";
import { ask } from "./ask.ts";
import { brief } from "./brief.ts";
import { checkpoints } from "./checkpoints.ts";
import { conversation } from "./conversation.ts";
import { doctor } from "./doctor.ts";
import { embedStatus } from "./embed-status.ts";
import { event } from "./event.ts";
import { eventChain } from "./event-chain.ts";
import { exportDocument } from "./export-document.ts";
import { inspect } from "./inspect.ts";
import { latestSession } from "./latest-session.ts";
import { overview } from "./overview.ts";
import { pack } from "./pack.ts";
import { problems } from "./problems.ts";
import { resolveEvent } from "./resolve-event.ts";
import { search } from "./search.ts";
import { secrets } from "./secrets.ts";
import { session } from "./session.ts";
import { sessionOfFile } from "./session-of-file.ts";
import { sessions } from "./sessions.ts";
import { sourceLine } from "./source-line.ts";
import { thread } from "./thread.ts";
import { threadTimeline } from "./thread-timeline.ts";
import { threads } from "./threads.ts";
import { timeline } from "./timeline.ts";
import { usage } from "./usage.ts";
import { verify } from "./verify.ts";
import { weekSpend } from "./week-spend.ts";

export const CATALOG = {
  search,
  event,
  eventChain,
  timeline,
  conversation,
  threadTimeline,
  brief,
  threads,
  thread,
  overview,
  sessions,
  session,
  latestSession,
  sessionOfFile,
  resolveEvent,
  exportDocument,
  sourceLine,
  pack,
  ask,
  aiResume,
  checkpoints,
  verify,
  embedStatus,
  problems,
  secrets,
  inspect,
  doctor,
  usage,
  weekSpend,
};

export type Catalog = typeof CATALOG;
export type QuestionName = keyof Catalog;
