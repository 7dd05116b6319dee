/**
 * Step validation and resolution (pure). A raw step is resolved against `pi.getCommands()` using each command's
 * `source` and `sourceInfo`, never against guessed names or paths. The only names known here are pi's own built-in
 * commands, which `getCommands()` does not list, and the names of the commands this extension registers.
 */
import type { SlashCommandInfo } from "@earendil-works/pi-coding-agent";
import { EXTENSION_NAME } from "../names.ts";
import { parseReadonlyArgs } from "../readonly/readonly-state.ts";
import { AGENTICODING_COMMAND_NAMES, type AgenticodingCommandName, type ResolvedStep } from "./types.ts";

/** Every command this extension registers; used to recognise its own `sourceInfo`. */
export const OWN_EXTENSION_COMMANDS = ["sequence", ...AGENTICODING_COMMAND_NAMES] as const;

/**
 * pi's interactive built-ins other than `/new` and `/compact`. They drive pi's own UI (selectors, dialogs, process
 * control), so a sequence cannot run them.
 */
export const INTERACTIVE_BUILTINS = [
  "settings",
  "model",
  "scoped-models",
  "thinking",
  "tree",
  "export",
  "import",
  "share",
  "bug",
  "copy",
  "name",
  "session",
  "changelog",
  "hotkeys",
  "fork",
  "clone",
  "trust",
  "login",
  "logout",
  "resume",
  "reload",
  "debug",
  "quit",
] as const;

export const STEP_REJECTIONS = [
  "empty",
  "shell",
  "malformed",
  "new",
  "interactive-builtin",
  "external-extension",
  "nested-sequence",
  "unresolved",
  "unavailable",
  "bad-arguments",
] as const;
export type StepRejectionReason = (typeof STEP_REJECTIONS)[number];

export type StepResolution =
  | { ok: true; step: ResolvedStep }
  | { ok: false; raw: string; reason: StepRejectionReason; message: string };

export interface CommandCatalog {
  commands: readonly SlashCommandInfo[];
  /** `sourceInfo.path` of this extension's own commands, or undefined when it cannot be established. */
  ownSourcePath: string | undefined;
  /** Own commands that exist but cannot work in this build, with the reason (e.g. no resume engine). */
  unavailable: ReadonlyMap<AgenticodingCommandName, string>;
}

export function createCommandCatalog(
  commands: readonly SlashCommandInfo[],
  unavailable: ReadonlyMap<AgenticodingCommandName, string> = new Map(),
): CommandCatalog {
  return { commands, ownSourcePath: findOwnSourcePath(commands), unavailable };
}

/**
 * The extension path that registered every one of this extension's commands. pi renames duplicate command names to
 * `name:N`, so the suffix is ignored when grouping; requiring all of the names keeps a third-party `/readonly` from
 * passing as this extension's.
 */
export function findOwnSourcePath(commands: readonly SlashCommandInfo[]): string | undefined {
  const namesByPath = new Map<string, Set<string>>();
  for (const command of commands) {
    if (command.source !== "extension") continue;
    const base = command.name.replace(/:\d+$/, "");
    const names = namesByPath.get(command.sourceInfo.path) ?? new Set<string>();
    names.add(base);
    namesByPath.set(command.sourceInfo.path, names);
  }
  for (const [path, names] of namesByPath) {
    if (OWN_EXTENSION_COMMANDS.every((name) => names.has(name))) return path;
  }
  return undefined;
}

const CAPABILITIES =
  "Sequences can run prompts, /readonly, /handoff, /notebook, /compact, prompt templates and skills.";

/** Resolve one raw step. Whitespace around the step is not part of it; everything inside is kept as typed. */
export function resolveStep(raw: string, catalog: CommandCatalog): StepResolution {
  const text = raw.trim();
  if (text.length === 0) return reject(raw, "empty", "Unsupported step: the step is empty.");
  if (text.startsWith("!")) {
    return reject(
      raw,
      "shell",
      `Unsupported step: ${firstLine(text)} is a shell command.\nAsk the agent to run it in a prompt step instead.`,
    );
  }
  if (!text.startsWith("/")) return { ok: true, step: { kind: "prompt", raw: text, text } };

  const parsed = parseSlash(text);
  if (!parsed) {
    return reject(
      raw,
      "malformed",
      `Unsupported step: ${JSON.stringify(firstLine(text))} is not a well-formed slash command.\nRewrite it as a plain prompt if it is meant for the agent.`,
    );
  }
  const { name, args } = parsed;
  if (name === "new") {
    return reject(
      raw,
      "new",
      "Unsupported step: /new cannot be a step.\nThe sequence runner starts a fresh session between runs itself.",
    );
  }
  if (name === "compact") {
    return {
      ok: true,
      step: args ? { kind: "compact", raw: text, instructions: args } : { kind: "compact", raw: text },
    };
  }
  if (isInteractiveBuiltin(name)) {
    return reject(
      raw,
      "interactive-builtin",
      `Unsupported step: /${name} is an interactive-only built-in command.\nIt drives pi's own UI and cannot run inside a sequence.`,
    );
  }

  const matches = catalog.commands.filter((command) => command.name === name);
  // pi dispatches extension commands before skills and templates; resolution follows the same precedence.
  const extension = matches.find((command) => command.source === "extension");
  if (extension) {
    const own = catalog.ownSourcePath !== undefined && extension.sourceInfo.path === catalog.ownSourcePath;
    if (own && isAgenticodingCommand(name)) {
      const why = catalog.unavailable.get(name);
      if (why) return reject(raw, "unavailable", `Unsupported step: /${name} is unavailable.\n${why}`);
      return ownCommandStep(raw, text, name, args);
    }
    if (own) {
      return reject(
        raw,
        "nested-sequence",
        `Unsupported step: /${name} cannot run inside a sequence.\n${CAPABILITIES}`,
      );
    }
    return reject(
      raw,
      "external-extension",
      `Unsupported step: /${name} is an external extension command.\n${EXTENSION_NAME} cannot execute third-party extension command handlers.`,
    );
  }
  const skill = matches.find((command) => command.source === "skill");
  if (skill) return { ok: true, step: { kind: "skill", raw: text, name, args, sourcePath: skill.sourceInfo.path } };
  const template = matches.find((command) => command.source === "prompt");
  if (template) {
    return { ok: true, step: { kind: "template", raw: text, name, args, sourcePath: template.sourceInfo.path } };
  }
  return reject(raw, "unresolved", `Unsupported step: /${name} is not a known command.\n${CAPABILITIES}`);
}

export type SequenceResolution =
  | { ok: true; steps: ResolvedStep[] }
  | { ok: false; failures: Array<{ index: number; raw: string; reason: StepRejectionReason; message: string }> };

/** Resolve every step; a sequence runs only when all of them resolve. */
export function resolveSequence(steps: readonly string[], catalog: CommandCatalog): SequenceResolution {
  const resolved: ResolvedStep[] = [];
  const failures: Array<{ index: number; raw: string; reason: StepRejectionReason; message: string }> = [];
  steps.forEach((raw, index) => {
    const result = resolveStep(raw, catalog);
    if (result.ok) resolved.push(result.step);
    else failures.push({ index, raw: result.raw, reason: result.reason, message: result.message });
  });
  return failures.length === 0 ? { ok: true, steps: resolved } : { ok: false, failures };
}

/** `/name args` → name and args; undefined when the text after `/` is not a command name. */
export function parseSlash(text: string): { name: string; args: string } | undefined {
  const match = /^\/(\S*)(?:\s+([\s\S]*))?$/.exec(text);
  if (!match) return undefined;
  const name = match[1] ?? "";
  // A command name never contains a slash; "/src/app.ts is broken" is a path, not a command.
  if (name.length === 0 || name.includes("/")) return undefined;
  return { name, args: (match[2] ?? "").trim() };
}

function isInteractiveBuiltin(name: string): boolean {
  return (INTERACTIVE_BUILTINS as readonly string[]).includes(name);
}

function isAgenticodingCommand(name: string): name is AgenticodingCommandName {
  return (AGENTICODING_COMMAND_NAMES as readonly string[]).includes(name);
}

/**
 * A step running one of this extension's commands, with its arguments as typed: plain `/readonly` toggles, as the
 * slash command does (each run starts in a fresh session, where read-only mode is off, so a first toggle sets it).
 */
function ownCommandStep(raw: string, text: string, name: AgenticodingCommandName, args: string): StepResolution {
  if (name !== "readonly") return { ok: true, step: { kind: "agenticodingCommand", raw: text, name, args } };
  const argument = parseReadonlyArgs(args);
  if (argument === undefined) {
    return reject(
      raw,
      "bad-arguments",
      `Unsupported step: /readonly ${firstLine(args)} is not a mode.\nWrite /readonly (toggles), /readonly on or /readonly off.`,
    );
  }
  return {
    ok: true,
    step: { kind: "agenticodingCommand", raw: text, name, args: argument === "toggle" ? "" : argument },
  };
}

function firstLine(text: string): string {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}

function reject(raw: string, reason: StepRejectionReason, message: string): StepResolution {
  return { ok: false, raw, reason, message };
}
