/**
 * Deep Agents Code (LangChain, `deepagents-code` on PyPI, command `dcode`; the CLI `deepagents-cli` shipped until
 * 0.1.0): every thread of a profile in one SQLite database, `<profile>/.state/sessions.db` (`deepagents_code/
 * sessions.py`: `DEFAULT_STATE_DIR / "sessions.db"`), the profile being `$DEEPAGENTS_HOME`, else `~/.deepagents`
 * (`deepagents_code/_paths.py`). Beside the database in `.state/`: its owner locks (`sessions.db.owners/`); in the
 * profile: config, agents' `AGENTS.md`, skills and the histories a compaction offloads (`conversation_history/*.md`),
 * none of them read.
 */
import { join } from "node:path";
import { defineAgent } from "../agent.ts";
import { deepAgentsReader } from "./reader.ts";

export const deepagents = defineAgent({
  provider: "deepagents",
  versionKey: "deepagents_version",
  name: "Deep Agents Code",
  readers: [deepAgentsReader],
  roots: (env, home) => [
    { provider: "deepagents", dir: join(env["DEEPAGENTS_HOME"] || join(home, ".deepagents"), ".state"), shallow: true },
  ],
  transcriptFile: (name) => name === "sessions.db",
  // `execute` runs a command; `edit_file` replaces `old_string` with `new_string`; `task` starts a subagent.
  tools: {
    shell: ["execute"],
    read: ["read_file"],
    write: ["write_file"],
    edit: ["edit_file"],
    search: ["glob", "grep", "ls"],
  },
  start: {
    inline: (text) => ["dcode", "-m", text],
    file: (path) => [
      "dcode",
      "-m",
      `Read the resume brief in ${path} first, all of it, then continue the work it describes.`,
    ],
  },
});
