/** Every agent the harness can drive, in the order `clients:refresh` runs them. */
import type { AgentDriver } from "../driver.ts";
import { claude } from "./claude.ts";
import { cline } from "./cline.ts";
import { codex } from "./codex.ts";
import { cont } from "./continue.ts";
import { copilot } from "./copilot.ts";
import { droid } from "./droid.ts";
import { gemini } from "./gemini.ts";
import { kilo, opencode } from "./opencode.ts";
import { pi } from "./pi.ts";
import { qwen } from "./qwen.ts";

export const DRIVERS: AgentDriver[] = [claude, codex, gemini, pi, qwen, copilot, opencode, kilo, cline, droid, cont];
