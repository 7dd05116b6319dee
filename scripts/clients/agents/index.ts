/** Every agent the harness can drive, in the order `clients:refresh` runs them. */
import type { AgentDriver } from "../driver.ts";
import { aiderDriver } from "./aider.ts";
import { auggie } from "./auggie.ts";
import { claude } from "./claude.ts";
import { cline } from "./cline.ts";
import { codex } from "./codex.ts";
import { commandcode } from "./commandcode.ts";
import { cont } from "./continue.ts";
import { copilot } from "./copilot.ts";
import { crush } from "./crush.ts";
import { deepagents } from "./deepagents.ts";
import { droid } from "./droid.ts";
import { gemini } from "./gemini.ts";
import { gptme } from "./gptme.ts";
import { hermes } from "./hermes.ts";
import { interpreter } from "./interpreter.ts";
import { kimi } from "./kimi.ts";
import { mini } from "./mini.ts";
import { nanocoder } from "./nanocoder.ts";
import { omp } from "./omp.ts";
import { openclaw } from "./openclaw.ts";
import { kilo, opencode } from "./opencode.ts";
import { openhands } from "./openhands.ts";
import { pi } from "./pi.ts";
import { qwen } from "./qwen.ts";
import { vibe } from "./vibe.ts";

export const DRIVERS: AgentDriver[] = [
  claude,
  codex,
  gemini,
  pi,
  qwen,
  copilot,
  opencode,
  kilo,
  cline,
  droid,
  auggie,
  kimi,
  crush,
  openclaw,
  nanocoder,
  vibe,
  mini,
  cont,
  omp,
  commandcode,
  hermes,
  gptme,
  openhands,
  interpreter,
  aiderDriver,
  deepagents,
];
