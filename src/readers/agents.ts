/**
 * The registry: every agent cairn reads, one line each, in the order people see them listed (detection tries each
 * agent's formats in this order too, except the `general` ones, last). Names, folders, help texts, the `provider:`
 * filter, detection and `cairn doctor` all come from here.
 */
import type { AgentManifest, ToolVocabulary } from "./agent.ts";
import { aider } from "./aider/agent.ts";
import { auggie } from "./auggie/agent.ts";
import { claude } from "./claude/agent.ts";
import { cline } from "./cline/agent.ts";
import { codex } from "./codex/agent.ts";
import { commandcode } from "./commandcode/agent.ts";
import { cont } from "./continue/agent.ts";
import { copilot } from "./copilot/agent.ts";
import { crush } from "./crush/agent.ts";
import { cursor } from "./cursor/agent.ts";
import { deepagents } from "./deepagents/agent.ts";
import { droid } from "./droid/agent.ts";
import { gemini } from "./gemini/agent.ts";
import { gptme } from "./gptme/agent.ts";
import { hermes } from "./hermes/agent.ts";
import { interpreter } from "./interpreter/agent.ts";
import { kimi } from "./kimi/agent.ts";
import { mini } from "./mini/agent.ts";
import { nanocoder } from "./nanocoder/agent.ts";
import { omp } from "./omp/agent.ts";
import { openclaw } from "./openclaw/agent.ts";
import { kilo, opencode } from "./opencode/agent.ts";
import { openhands } from "./openhands/agent.ts";
import { pi } from "./pi/agent.ts";
import { qwen } from "./qwen/agent.ts";
import { roo } from "./roo/agent.ts";
import { vibe } from "./vibe/agent.ts";
import type { Provider } from "./vocabulary.ts";
import { vscode } from "./vscode/agent.ts";
import { windsurf } from "./windsurf/agent.ts";

export const AGENTS: readonly AgentManifest[] = [
  claude,
  codex,
  pi,
  gemini,
  qwen,
  copilot,
  opencode,
  kilo,
  cline,
  droid,
  cursor,
  auggie,
  kimi,
  crush,
  openclaw,
  nanocoder,
  vibe,
  mini,
  cont,
  roo,
  vscode,
  omp,
  commandcode,
  windsurf,
  hermes,
  gptme,
  openhands,
  interpreter,
  aider,
  deepagents,
];

/** The agents' ids, as `provider:` filters and facets name them. */
export const PROVIDERS: readonly Provider[] = AGENTS.map((a) => a.provider);

/** The longest provider name: columns of provider names pad to it, so a new agent's name keeps them aligned. */
export const PROVIDER_WIDTH = Math.max(...PROVIDERS.map((p) => p.length));

/** "pi, Codex, …, Kilo Code": every agent cairn reads, by the name people know it by (help texts). */
export const AGENT_NAMES = AGENTS.map((a) => a.name).join(", ");

/** `pi|codex|…`: the values the query language's `provider:` takes. */
export const PROVIDER_CHOICES = PROVIDERS.join("|");

/** The agent with this id, if cairn reads it. */
export function agentOf(provider: string): AgentManifest | undefined {
  return AGENTS.find((a) => a.provider === provider);
}

/** The name people know an agent by; its id when cairn does not know it (an index written by a newer cairn). */
export function agentName(provider: string): string {
  return agentOf(provider)?.name ?? provider;
}

/** Every agent's own tool names for one kind of call (`shell`, `edit`, …), as their manifests list them. */
export function agentToolNames(kind: keyof ToolVocabulary): string[] {
  return AGENTS.flatMap((a) => a.tools?.[kind] ?? []);
}
