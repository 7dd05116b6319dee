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

/** The manifest as written, checked against the interface with its literal provider kept. */
export function defineAgent<const M extends AgentManifest>(manifest: M): M {
  return manifest;
}
