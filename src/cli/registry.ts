import type { Command } from "./io.ts";

/**
 * Every `cairn` subcommand, loaded lazily so that `cairn inspect` does not pay for the web server's imports.
 * Add one line per command.
 */
export const COMMANDS: Record<string, { summary: string; load: () => Promise<Command> }> = {
  index: {
    summary: "index transcripts into the database",
    load: async () => (await import("./commands/index-command.ts")).indexCommand,
  },
  inspect: {
    summary: "print what cairn makes of transcript files",
    load: async () => (await import("./commands/inspect.ts")).inspectCommand,
  },
  overview: {
    summary: "index the default folders and show an overview (what `cairn` alone runs)",
    load: async () => (await import("./commands/overview.ts")).overviewCommand,
  },
  search: {
    summary: "search transcripts: errors, tests, decisions, files, commands",
    load: async () => (await import("./commands/search.ts")).searchCommand,
  },
  sessions: {
    summary: "list indexed sessions with their counts",
    load: async () => (await import("./commands/sessions.ts")).sessionsCommand,
  },
  usage: {
    summary: "tokens and cost per day, session, project, agent or model, from what the agents recorded",
    load: async () => (await import("./commands/usage.ts")).usageCommand,
  },
  timeline: {
    summary: "show a session's events in order",
    load: async () => (await import("./commands/timeline.ts")).timelineCommand,
  },
  resume: {
    summary: "build a cited brief to resume a session, or start an agent with it",
    load: async () => (await import("./commands/resume.ts")).resumeCommand,
  },
  ask: {
    summary: "answer a question from your history with a model, every claim cited and checked",
    load: async () => (await import("./commands/ask.ts")).askCommand,
  },
  show: {
    summary: "print one event with its edges",
    load: async () => (await import("./commands/show.ts")).showCommand,
  },
  checkpoints: {
    summary: "list a session's checkpoints and their steps",
    load: async () => (await import("./commands/checkpoints.ts")).checkpointsCommand,
  },
  checkpoint: {
    summary: "record an explicit checkpoint (a step) for a session",
    load: async () => (await import("./commands/checkpoint.ts")).checkpointCommand,
  },
  threads: {
    summary: "list work threads: sessions of any agent joined by the rare files, errors and branches they share",
    load: async () => (await import("./commands/threads.ts")).threadsCommand,
  },
  doctor: {
    summary: "check that every agent's transcripts still reach the index (moved stores, new formats, unreadable files)",
    load: async () => (await import("./commands/doctor.ts")).doctorCommand,
  },
  secrets: {
    summary: "list the secrets found in agent history (never their values); --purge removes them from the index",
    load: async () => (await import("./commands/secrets.ts")).secretsCommand,
  },
  push: {
    summary: "send what the local index has to a team index on PostgreSQL",
    load: async () => (await import("./commands/push.ts")).pushCommand,
  },
  hooks: {
    summary: "add a cited brief of earlier work to every new agent session (session-start hooks)",
    load: async () => (await import("./commands/hooks.ts")).hooksCommand,
  },
  prune: {
    summary: "forget sessions whose transcripts are gone from disk",
    load: async () => (await import("./commands/prune.ts")).pruneCommand,
  },
  export: {
    summary: "write a session or a thread as a Markdown, HTML or JSON document to share",
    load: async () => (await import("./commands/export.ts")).exportCommand,
  },
  embed: {
    summary: "choose the embedder and embed the index's evidence bundles for semantic search",
    load: async () => (await import("./commands/embed.ts")).embedCommand,
  },
  models: {
    summary: "install, list, check and remove the sentence models search uses by meaning",
    load: async () => (await import("./commands/models.ts")).modelsCommand,
  },
  mcp: {
    summary: "serve the index to agents over MCP (stdio)",
    load: async () => (await import("./commands/mcp.ts")).mcpCommand,
  },
  completion: {
    summary: "print shell completions: cairn completion bash|zsh|fish",
    load: async () => (await import("./commands/completion.ts")).completionCommand(COMMANDS),
  },
  tui: {
    summary: "browse, search and resume sessions in a terminal UI",
    load: async () => (await import("./commands/tui.ts")).tuiCommand,
  },
  serve: {
    summary: "serve a live agent session to browser tabs",
    load: async () => (await import("./commands/serve.ts")).serveCommand,
  },
};
