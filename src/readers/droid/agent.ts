/** Factory Droid: sessions under `~/.factory/sessions`. */
import { join } from "node:path";
import { defineAgent } from "../agent.ts";
import { droidReader } from "./reader.ts";

export const droid = defineAgent({
  provider: "droid",
  versionKey: "droid_version",
  name: "Factory Droid",
  readers: [droidReader],
  roots: (_env, home) => [{ provider: "droid", dir: join(home, ".factory", "sessions") }],
  tools: { shell: ["execute"] },
});
