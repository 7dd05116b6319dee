/**
 * cairn's small settings file, `$XDG_CONFIG_HOME/cairn/config.json` (default `~/.config/cairn/config.json`): the model
 * `ask` and `resume --ai` use when neither flags nor environment choose one. Only choices live here, never keys.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { CairnError } from "../common/errors.ts";
import type { Env } from "./open.ts";

export interface CairnConfig {
  model?: { provider: string; model: string; url?: string | null };
}

/**
 * The file's shape, checked by hand: it is read at the start of every command that may ask a model, and a schema
 * library there cost each of those starts the loading of a hundred modules.
 */
function checkConfig(v: unknown): CairnConfig | string {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return "expected an object";
  const model = (v as Record<string, unknown>)["model"];
  if (model === undefined) return {};
  if (typeof model !== "object" || model === null || Array.isArray(model)) return "model: expected an object";
  const m = model as Record<string, unknown>;
  for (const key of ["provider", "model"] as const)
    if (typeof m[key] !== "string" || m[key] === "") return `model.${key}: expected a non-empty string`;
  const url = m["url"];
  if (url !== undefined && url !== null && (typeof url !== "string" || !URL.canParse(url)))
    return "model.url: expected a URL";
  return {
    model: {
      provider: m["provider"] as string,
      model: m["model"] as string,
      ...(url === undefined ? {} : { url: url as string | null }),
    },
  };
}

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
  const config = checkConfig(parsed);
  if (typeof config === "string") throw new CairnError("failure", `${path}: ${config}`, "fix it or delete it");
  return config;
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
