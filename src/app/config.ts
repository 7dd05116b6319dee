/**
 * cairn's small settings file, `$XDG_CONFIG_HOME/cairn/config.json` (default `~/.config/cairn/config.json`): the model
 * `ask` and `resume --ai` use when neither flags nor environment choose one. Only choices live here, never keys.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { z } from "zod";
import { CairnError } from "../common/errors.ts";
import type { Env } from "./open.ts";

const ConfigSchema = z.object({
  model: z
    .object({
      provider: z.string().min(1),
      model: z.string().min(1),
      url: z.string().url().nullable().optional(),
    })
    .optional(),
});
export type CairnConfig = z.infer<typeof ConfigSchema>;

export function configPath(env: Env): string {
  const base = env["XDG_CONFIG_HOME"] || join(env["HOME"] || homedir(), ".config");
  return join(base, "cairn", "config.json");
}

/** The settings file, or an empty config when there is none; a malformed one is an error naming the file. */
export function readConfig(env: Env): CairnConfig {
  const path = configPath(env);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CairnError("failure", `${path} is not JSON`, "fix it or delete it");
  }
  const result = ConfigSchema.safeParse(parsed);
  if (!result.success)
    throw new CairnError("failure", `${path}: ${result.error.issues[0]?.message ?? "invalid"}`, "fix it or delete it");
  return result.data;
}

/** Writes the settings file whole (through a temporary file, so a crash never leaves half of it). */
export function writeConfig(env: Env, config: CairnConfig): string {
  const path = configPath(env);
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, path);
  return path;
}
