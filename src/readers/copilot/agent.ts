/** GitHub Copilot CLI: sessions under `$COPILOT_HOME` (default `~/.copilot`) `/session-state`. */
import { join } from "node:path";
import { defineAgent } from "../agent.ts";
import { copilotReader } from "./reader.ts";

export const copilot = defineAgent({
  provider: "copilot",
  versionKey: "copilot_version",
  name: "GitHub Copilot CLI",
  readers: [copilotReader],
  roots: (env, home) => [
    { provider: "copilot", dir: join(env["COPILOT_HOME"] || join(home, ".copilot"), "session-state") },
  ],
});
