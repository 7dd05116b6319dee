/**
 * What cairn knows about one agent, declared once in the agent's own folder (`readers/<agent>/agent.ts`) and
 * listed in the registry (`readers/agents.ts`). Everything else — discovery, detection, the tool vocabulary the
 * topology maps calls with, the command a brief starts the agent with, `cairn doctor` — reads it from there, so a
 * new agent is one folder and one registry line.
 */
import type { Reader } from "./types.ts";
import type { Provider, TranscriptRoot } from "./vocabulary.ts";

/**
 * The agent's own tool names, by what the call does, beyond the names every agent shares (`bash`, `read`, `write`,
 * `edit`, `grep`, …, kept in `topology/`). Lower case; an MCP server's prefix is removed before matching.
 */
export interface ToolVocabulary {
  /** Runs a command line (its `command`, `cmd` or `commands` argument). */
  shell?: readonly string[];
  read?: readonly string[];
  /** Writes a whole file. */
  write?: readonly string[];
  /** Replaces text in a file (`old_string`/`new_string` and their synonyms). */
  edit?: readonly string[];
  /** Views, creates or edits a file, as its `command` argument says (`view`, `create`, `str_replace`, `insert`). */
  editor?: readonly string[];
  /** Finds files or text. */
  search?: readonly string[];
  /** Writes the agent's to-do list. */
  plan?: readonly string[];
  /** Applies a patch envelope. */
  patch?: readonly string[];
}

/** How to start the agent with a resume brief, for `cairn resume --print-command <agent>`. */
export interface StartCommand {
  /** The argv (program first) that starts the agent with `text` as its first message. */
  inline(text: string): string[];
  /** The argv that starts it with the brief in `file` (a brief too long for one argument). */
  file(path: string): string[];
}

export interface AgentManifest {
  provider: Provider;
  /** The name people know it by (overview, inspect, help texts). */
  name: string;
  /** Its formats, in the order detection tries them (a fork's format before the format it forked). */
  readers: readonly Reader<unknown>[];
  /** The folders it keeps transcripts in, honouring its environment overrides. */
  roots(env: Record<string, string | undefined>, home: string): TranscriptRoot[];
  /** A file name under its roots that is a transcript although not `.jsonl` (a database, a JSON document). */
  transcriptFile?(name: string): boolean;
  /** A `.jsonl` file name under its roots that is not a transcript (a copy of what the model was last sent). */
  sidecarFile?(name: string): boolean;
  /** A file under its roots named like a transcript that is not one (a store's journal): never looked at. */
  notTranscript?(path: string): boolean;
  tools?: ToolVocabulary;
  start?: StartCommand;
  /** The session `meta` key its reader keeps the writing CLI's version (or format version) under, for `cairn doctor`. */
  versionKey?: string;
}

/** What an agent tells its session-start hook, as cairn needs it. */
export interface HookStart {
  /** The folder the session runs in. */
  cwd: string;
  sessionId?: string;
  transcriptPath?: string;
  /** Why the session starts, in the agent's words (Claude Code: startup, resume, clear, compact). */
  source?: string;
  /** The session carries its own history already (a resume, a compaction): cairn adds nothing. */
  continuation: boolean;
}

/** An agent's session-start hook (pure): where it is registered, how, what it is told, how it answers. */
export interface SessionStartHook {
  /** The user-level settings file the hook goes in. */
  settingsPath(env: Record<string, string | undefined>, home: string): string;
  /** The settings with cairn's command registered (idempotent); `text` is null when the file does not exist. */
  install(text: string | null, command: string): string;
  /** The settings without cairn's command, or null when they hold none of cairn's. */
  remove(text: string): string | null;
  installed(text: string): boolean;
  /** The hook's standard input. */
  parseInput(text: string): HookStart;
  /** What the hook prints so that the agent hands `context` to the model. */
  output(context: string): string;
  /**
   * Where this agent's other recent transcripts of the session's project are, for the hook to index before it
   * briefs (only files directly in `dirs` whose name `match`es; the newest 20 are read). With `file`, each entry of
   * `dirs` whose name matches is a session's folder and its transcript is `file` inside it. Absent: the files beside
   * `transcriptPath` with its extension.
   */
  earlier?(
    start: HookStart,
    env: Record<string, string | undefined>,
    home: string,
  ): { dirs: string[]; match(name: string): boolean; file?: string } | null;
  /** A second user file the hook needs written beside the settings file, installed and restored with it. */
  companion?: HookCompanion;
}

/**
 * A file an agent needs changed besides its hook settings for the hook to run at all (Codex runs a user's hook only
 * once its hash is recorded as trusted in `config.toml`). Install writes it after the settings, remove restores it.
 */
export interface HookCompanion {
  path(env: Record<string, string | undefined>, home: string): string;
  /** The file holding what `settings` (the settings file as install leaves it, at `settingsPath`) needs; `text` null: no file. */
  install(text: string | null, settings: string, settingsPath: string): string;
  /** The file without cairn's entry, or null when it holds none. */
  remove(text: string): string | null;
  /** Whether the file holds what `settings` needs. */
  installed(text: string | null, settings: string, settingsPath: string): boolean;
}

/** The manifest as written, checked against the interface with its literal provider kept. */
export function defineAgent<const M extends AgentManifest>(manifest: M): M {
  return manifest;
}
