/**
 * Oh My Pi (`omp`, `@oh-my-pi/pi-coding-agent`): pi-format sessions in `~/.omp/agent/sessions` (the folder under
 * HOME named by `$PI_CONFIG_DIR`, default `.omp`). It also honours pi's `$PI_CODING_AGENT_DIR`, which names pi's
 * folder too, so that one is left to pi.
 */
import { join } from "node:path";
import { defineAgent } from "../agent.ts";
import { ompReader } from "./reader.ts";

export const omp = defineAgent({
  provider: "omp",
  versionKey: "format_version",
  name: "Oh My Pi",
  readers: [ompReader],
  roots(env, home) {
    return [{ provider: "omp", dir: join(home, env["PI_CONFIG_DIR"] || ".omp", "agent", "sessions") }];
  },
  tools: { plan: ["todo"] },
  start: {
    inline: (text) => ["omp", "--", text],
    // Like pi, it inlines an `@file` argument into its first message.
    file: (path) => ["omp", `@${path}`],
  },
});
