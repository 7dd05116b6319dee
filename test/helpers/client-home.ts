/**
 * A copy of a HOME an agent's own CLI wrote in the real-client harness (test/fixtures/clients/<agent>/<version>/home),
 * as if the CLI had run in the copy: a file naming folders under the HOME it ran in by absolute path (Crush's
 * `projects.json`, the data folder of each project, which is how cairn finds Crush's databases) names them under
 * the copy. The harness ran every CLI with HOME at /tmp/cairn-clients/<agent>/home (scripts/clients/refresh.ts).
 */
import { cpSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

export function copyClientHome(fixtureHome: string, to: string): void {
  cpSync(fixtureHome, to, { recursive: true });
  const ranIn = join("/tmp", "cairn-clients", basename(dirname(dirname(fixtureHome))), "home");
  for (const entry of readdirSync(fixtureHome, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".json")) continue;
    const path = join(to, entry.parentPath.slice(fixtureHome.length), entry.name);
    const text = readFileSync(path, "utf8");
    if (text.includes(ranIn)) writeFileSync(path, text.replaceAll(ranIn, to));
  }
}
