/**
 * Crush (Charm): each project's sessions in its own SQLite database, `<project>/.crush/crush.db` (the closest
 * `.crush` folder up to the repository's root, or another data folder given by `--data-dir` or the config's
 * `options.data_directory`). Crush lists every project it ran in, with its data folder, in `projects.json` in its
 * global data folder (`$CRUSH_GLOBAL_DATA`, else `$XDG_DATA_HOME/crush`, else `~/.local/share/crush`): cairn finds
 * the databases through that list, and `cairn index --root <project>` finds a project's `.crush/crush.db` itself.
 */
import { join } from "node:path";
import { defineAgent } from "../agent.ts";
import { isObj } from "../json.ts";
import { crushReader } from "./reader.ts";

/** The data folders `projects.json` names (`{ projects: [{ path, data_dir, last_accessed }] }`). */
export function crushProjects(text: string): string[] {
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch {
    return [];
  }
  const projects = isObj(list) && Array.isArray(list["projects"]) ? list["projects"] : [];
  return projects.flatMap((p) => {
    if (!isObj(p)) return [];
    const dir = typeof p["data_dir"] === "string" && p["data_dir"] !== "" ? p["data_dir"] : null;
    if (dir) return [dir];
    return typeof p["path"] === "string" && p["path"] !== "" ? [join(p["path"], ".crush")] : [];
  });
}

export const crush = defineAgent({
  provider: "crush",
  name: "Crush",
  readers: [crushReader],
  roots: (env, home) => {
    const data = env["CRUSH_GLOBAL_DATA"] || join(env["XDG_DATA_HOME"] || join(home, ".local", "share"), "crush");
    return [{ provider: "crush", dir: join(data, "projects.json"), listing: crushProjects }];
  },
  transcriptFile: (name) => name === "crush.db",
  tools: { plan: ["todos"], search: ["sourcegraph"] },
});
