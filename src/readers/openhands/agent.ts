/**
 * OpenHands CLI (`openhands` on PyPI): a conversation is a folder, `conversations/<id>/`, under
 * `$OPENHANDS_CONVERSATIONS_DIR`, else `$OPENHANDS_PERSISTENCE_DIR/conversations`, else `~/.openhands/conversations`.
 * It holds the conversation's state (`base_state.json`: its id, workspace, model) and one JSON file per event in
 * `events/`; a subagent's conversation is a folder of the same shape under its parent's `subagents/`. The state file
 * stands for the conversation: its events are read through it (`Reader.eventFolder`), never one by one.
 */
import { join } from "node:path";
import { defineAgent } from "../agent.ts";
import { openhandsReader } from "./reader.ts";

export const openhands = defineAgent({
  provider: "openhands",
  name: "OpenHands CLI",
  readers: [openhandsReader],
  roots: (env, home) => [
    {
      provider: "openhands",
      dir:
        env["OPENHANDS_CONVERSATIONS_DIR"] ||
        join(env["OPENHANDS_PERSISTENCE_DIR"] || join(home, ".openhands"), "conversations"),
    },
  ],
  transcriptFile: (name) => name === "base_state.json",
  // The file editor's `command` says whether it views, creates or replaces; the task tracker writes the plan.
  tools: {
    shell: ["terminal"],
    editor: ["file_editor", "planning_file_editor"],
    plan: ["task_tracker"],
    search: ["list_directory"],
  },
  start: {
    inline: (text) => ["openhands", "-t", text],
    file: (path) => ["openhands", "-f", path],
  },
});
