/**
 * `npm run clients:planted [agent...] [-- --version X]`: plays the planted-secrets conversation (planted.ts)
 * through each agent's real CLI against the fake model, and commits what the CLI wrote under
 * test/probes/fixtures/<agent>/<version>/home with every planted value replaced by its placeholder. The probes
 * (test/probes/) put the values back before indexing. Agents with a one-prompt run (`once`): claude, codex, pi.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { TASKS } from "../fake/script.ts";
import { playClient } from "../play.ts";
import { refreshEach } from "../run-each.ts";
import { plantedSecrets, projectFiles, scrub, secretsPrompt, secretsSteps } from "./planted.ts";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "../../..");
export const PLANTED_FIXTURES = join(REPO, "test", "probes", "fixtures");

TASKS["S"] = secretsSteps();

async function refresh(name: string, version: string | undefined): Promise<void> {
  const played = await playClient(name, version, {
    root: join("/tmp", "cairn-planted", name),
    files: projectFiles(),
    play: async (driver, ctx) => {
      if (!driver.once) throw new Error(`${driver.name} has no one-prompt run`);
      await driver.once(ctx, secretsPrompt());
    },
  });
  const out = join(PLANTED_FIXTURES, name, played.version);
  rmSync(out, { recursive: true, force: true });
  const found = new Set<string>();
  for (const f of played.kept) {
    const raw = readFileSync(join(played.home, f), "utf8");
    for (const s of plantedSecrets()) if (s.pieces.some((piece) => raw.includes(piece))) found.add(s.name);
    const text = scrub(raw);
    for (const s of plantedSecrets())
      for (const piece of s.pieces)
        for (let i = 0; i + 20 <= piece.length; i++)
          if (text.includes(piece.slice(i, i + 20))) throw new Error(`${f}: ${s.name} survived the scrub`);
    mkdirSync(dirname(join(out, "home", f)), { recursive: true });
    writeFileSync(join(out, "home", f), text);
  }
  const missing = plantedSecrets()
    .map((s) => s.name)
    .filter((n) => !found.has(n));
  if (missing.length > 0) throw new Error(`${name}: the transcript holds no ${missing.join(", ")}`);
  process.stderr.write(`[${name}] ${played.kept.length} files → ${relative(REPO, out)}\n`);
}

await refreshEach(process.argv.slice(2), ["claude", "codex", "pi"], refresh);
