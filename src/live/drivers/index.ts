/**
 * Picks and builds a driver by name. The SDK drivers are imported only when chosen: pi and the Claude Agent
 * SDK are optional dependencies, and `cairn serve --driver scripted` must work without either.
 */
import { errorMessage } from "../errors.ts";
import type { DriverName } from "../protocol.ts";
import type { Script } from "./script-format.ts";
import { createScriptedDriver } from "./scripted.ts";
import type { LiveDriver } from "./types.ts";

export interface CreateDriverOptions {
  name: DriverName;
  cwd: string;
  /** Required for `scripted`. */
  script?: Script;
  /** pi's provider and model (`--provider`, `--model`); the agent's own settings choose when omitted. */
  provider?: string;
  model?: string;
  /** Overrides the path of the Claude Code executable (the `claude` driver). */
  claudeExecutable?: string;
}

/** Imports an optional driver module, turning a missing package into an install hint. */
export async function loadOptional<T>(load: () => Promise<T>, what: string, install: string): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") {
      throw new Error(`the ${what} driver needs ${install}, which is not installed (npm install ${install})`);
    }
    throw new Error(`could not load the ${what} driver: ${errorMessage(error)}`);
  }
}

export async function createDriver(options: CreateDriverOptions): Promise<LiveDriver> {
  switch (options.name) {
    case "scripted":
      if (!options.script) throw new Error("the scripted driver needs a script");
      return createScriptedDriver({ script: options.script, cwd: options.cwd });
    case "pi": {
      const { createPiDriver } = await loadOptional(() => import("./pi.ts"), "pi", "@earendil-works/pi-coding-agent");
      return createPiDriver({
        cwd: options.cwd,
        ...(options.provider ? { provider: options.provider } : {}),
        ...(options.model ? { modelId: options.model } : {}),
      });
    }
    case "claude": {
      const { createClaudeDriver } = await loadOptional(
        () => import("./claude.ts"),
        "claude",
        "@anthropic-ai/claude-agent-sdk",
      );
      return createClaudeDriver({
        cwd: options.cwd,
        ...(options.claudeExecutable ? { pathToClaudeCodeExecutable: options.claudeExecutable } : {}),
        ...(options.model ? { model: options.model } : {}),
      });
    }
  }
}
