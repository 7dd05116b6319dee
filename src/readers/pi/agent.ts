/** pi: sessions under `$PI_CODING_AGENT_DIR` (or `$PI_AGENT_DIR`, default `~/.pi/agent`) `/sessions`. */
import { join } from "node:path";
import { defineAgent } from "../agent.ts";
import { piReader } from "../pi-format/reader.ts";

export const pi = defineAgent({
  provider: "pi",
  versionKey: "format_version",
  name: "pi",
  readers: [piReader],
  roots(env, home) {
    const dir = env["PI_CODING_AGENT_DIR"] || env["PI_AGENT_DIR"] || join(home, ".pi", "agent");
    return [{ provider: "pi", dir: join(dir, "sessions") }];
  },
  start: {
    // pi reads everything after `--` as messages, so a brief is never taken for an option or an @file.
    inline: (text) => ["pi", "--", text],
    // …and inlines an `@file` argument into its first message.
    file: (path) => ["pi", "--", `@${path}`],
  },
});
