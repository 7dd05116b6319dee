/**
 * What the text of a `user` line is. Claude Code writes far more than prompts as user lines: harness text in markup
 * (reminders, IDE context, command output), slash commands and their output, `!` shell commands and theirs, and
 * interruptions. Only what is left after the markup is a typed prompt.
 */
import type { Obj } from "../json.ts";
import type { ClaudeState } from "./state.ts";

/** Markup that Claude Code wraps around harness text that arrives as a user message. */
const INJECTED_TAGS = [
  "system-reminder",
  "task-notification",
  "user-memory-input",
  "ide_opened_file",
  "ide_selection",
  "local-command-stdout",
  "local-command-stderr",
  "local-command-caveat",
  "command-stdout",
  "command-stderr",
];
export const INJECTED_RE = new RegExp(`<(${INJECTED_TAGS.join("|")})>[\\s\\S]*?</\\1>`, "g");
const INTERRUPT_RE = /^\[Request interrupted by user( for tool use)?\]/;

export interface UserText {
  role: "user" | "system";
  text: string;
  typed: boolean;
  meta: Record<string, unknown>;
  bash?: string;
  bashOutput?: { stdout: string; stderr: string };
  /** A slash command (`/clear`), and the output of one (`<local-command-stdout>`). */
  slash?: boolean;
  localOutput?: string;
  notice?: boolean;
}

function tag(text: string, name: string): string | undefined {
  const m = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(text);
  return m ? (m[1] ?? "") : undefined;
}

export function classifyUserText(s: ClaudeState, raw: string, o: Obj): UserText {
  if (o["isMeta"] === true) return { role: "system", text: raw, typed: false, meta: { injected: "meta" } };
  const harness = slashCommand(s, raw) ?? shellCommand(raw);
  if (harness) return harness;
  if (INTERRUPT_RE.test(raw.trim()))
    return { role: "system", text: raw.trim(), typed: false, meta: { interrupt: true }, notice: true };
  const stripped = raw.replace(INJECTED_RE, "").trim();
  if (stripped === "") {
    const name = /<([a-z_-]+)>/.exec(raw)?.[1] ?? "markup";
    return { role: "system", text: raw, typed: false, meta: { injected: name } };
  }
  const injected = stripped.length !== raw.trim().length ? { injected_context: raw.length - stripped.length } : {};
  return { role: "user", text: stripped, typed: true, meta: injected };
}

/** A slash command the user ran, or (while one waits) the output it printed. */
function slashCommand(s: ClaudeState, raw: string): UserText | null {
  const command = tag(raw, "command-name");
  if (command !== undefined) {
    const args = tag(raw, "command-args")?.trim() ?? "";
    const name = command.trim();
    return {
      role: "user",
      text: args ? `${name} ${args}` : name,
      typed: false,
      meta: { slash_command: name.replace(/^\//, "") },
      slash: true,
    };
  }
  if (!s.pendingSlash) return null;
  const stdout = tag(raw, "local-command-stdout");
  const stderr = tag(raw, "local-command-stderr");
  if (stdout === undefined && stderr === undefined) return null;
  return {
    role: "system",
    text: raw,
    typed: false,
    meta: {},
    localOutput: [stdout, stderr].filter(Boolean).join("\n"),
  };
}

/** A `!` shell command the user ran in the harness (`<bash-input>`), or the output it printed. */
function shellCommand(raw: string): UserText | null {
  const bash = tag(raw, "bash-input");
  if (bash !== undefined) return { role: "user", text: bash, typed: false, meta: {}, bash };
  const stdout = tag(raw, "bash-stdout");
  const stderr = tag(raw, "bash-stderr");
  if (stdout === undefined && stderr === undefined) return null;
  return {
    role: "system",
    text: raw,
    typed: false,
    meta: {},
    bashOutput: { stdout: stdout ?? "", stderr: stderr ?? "" },
  };
}
