/**
 * mini-swe-agent (`mini`): the trajectory of its last run, `last_mini_run.traj.json`, in its global config folder
 * (`$MSWEA_GLOBAL_CONFIG_DIR`, else the platform's: `$XDG_CONFIG_HOME/mini-swe-agent` or `~/.config/mini-swe-agent`,
 * `~/Library/Application Support/mini-swe-agent` on macOS). Each run rewrites it; a trajectory saved elsewhere with
 * `-o` is read when that folder is indexed.
 */
import { join } from "node:path";
import { defineAgent } from "../agent.ts";
import { miniReader } from "./reader.ts";

export const mini = defineAgent({
  provider: "mini",
  versionKey: "mini_version",
  name: "mini-swe-agent",
  readers: [miniReader],
  // Only the files directly in the folder: it is a config folder (its `.env`, prompt history) shared by nothing else.
  roots: (env, home) =>
    env["MSWEA_GLOBAL_CONFIG_DIR"]
      ? [{ provider: "mini", dir: env["MSWEA_GLOBAL_CONFIG_DIR"], shallow: true }]
      : [
          {
            provider: "mini",
            dir: join(env["XDG_CONFIG_HOME"] || join(home, ".config"), "mini-swe-agent"),
            shallow: true,
          },
          { provider: "mini", dir: join(home, "Library", "Application Support", "mini-swe-agent"), shallow: true },
        ],
  transcriptFile: (name) => name.endsWith(".traj.json"),
  start: {
    inline: (text) => ["mini", "-t", text],
    file: (path) => [
      "mini",
      "-t",
      `Read the resume brief in ${path} first, all of it, then continue the work it describes.`,
    ],
  },
});
