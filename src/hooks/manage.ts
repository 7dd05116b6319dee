/**
 * `cairn hooks install|remove|status|off|on`: registering cairn in agents' settings files and taking it out again.
 * Install keeps what the file held and remembers it; remove gives the file back byte for byte when nobody changed
 * it since, and otherwise takes out only cairn's entry.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { type HooksState, readState, statePath, writeState } from "../app/hook-state.ts";
import { type HookAgent, type HookCompanion, hookAgents } from "../app/hooks.ts";

type Env = Record<string, string | undefined>;

/**
 * The command an agent runs: this Node and this cairn by absolute path, so no PATH is needed. It names the built
 * bundle when it is newer than every source, which is what an installed cairn runs anyway, and saves a clone's hook
 * the walk `bin/cairn.js` makes to see whether the bundle is still fresh. A stale bundle (sources pulled since the
 * last build) might not know the hook at all; `bin/cairn.js` rebuilds it before running it.
 */
export function hookCommand(agent: string): string {
  const bin = freshBundle() ? BUNDLE : fileURLToPath(new URL("../../bin/cairn.js", import.meta.url));
  return `${quote(process.execPath)} ${quote(bin)} hooks run ${agent}`;
}

const BUNDLE = fileURLToPath(new URL("../../dist/bundle/cairn.js", import.meta.url));
const SOURCES = fileURLToPath(new URL("../../src", import.meta.url));

/** Whether the hook runs the built bundle (else, in a clone not built since its sources changed, the sources). */
export function freshBundle(): boolean {
  return existsSync(BUNDLE) && statSync(BUNDLE).mtimeMs >= newestIn(SOURCES);
}

/** The newest modification time of the files under `dir` (0 when there is no such folder: an installed package). */
function newestIn(dir: string): number {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  return newest;
}

function quote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

const home = (env: Env) => env["HOME"] || homedir();

/**
 * The agent's own folder under the home (`~/.claude` for `~/.claude/settings.json`), and whether it exists: an
 * agent never run here has none. Null when its settings live outside the home (an environment override).
 */
export function agentFolder(env: Env, hook: HookAgent["hook"]): { path: string; exists: boolean } | null {
  const rel = relative(home(env), hook.settingsPath(env, home(env)));
  const first = rel.split(sep)[0];
  if (!first || first === ".." || isAbsolute(rel)) return null;
  const path = join(home(env), first);
  return { path, exists: existsSync(path) };
}
const read = (path: string): string | null => (existsSync(path) ? readFileSync(path, "utf8") : null);

export type InstallOutcome = {
  agent: string;
  path: string;
  did: "installed" | "already installed" | "failed";
  /** Why it failed (settings that are not JSON, a clash in Codex's config). */
  why?: string;
};

export function install(env: Env, agents: readonly HookAgent[], command = hookCommand): InstallOutcome[] {
  const state = readState(env);
  const out = agents.map(({ provider, hook }): InstallOutcome => {
    const path = hook.settingsPath(env, home(env));
    let text: string | null;
    let next: string;
    let companion: ReturnType<typeof companionInstall> | undefined;
    try {
      text = read(path);
      next = hook.install(text, command(provider));
      // The companion file follows the settings as written (Codex: the trust of the hook at its place in them).
      companion = hook.companion && companionInstall(hook.companion, env, next, path);
    } catch (error) {
      // Settings cairn cannot read are left as they are; the other agents are still installed, and remembered.
      const why = error instanceof Error ? error.message : String(error);
      return { agent: provider, path, did: "failed", why: `${why.split("\n")[0]}; nothing was changed` };
    }
    if (next === text && (!companion || companion.next === companion.text))
      return { agent: provider, path, did: "already installed" };
    writeChanged(path, text, next);
    if (companion) writeChanged(companion.path, companion.text, companion.next);
    const before = state.installed[provider];
    // A second install over our own entry keeps the files from before the first.
    const original = before && before.settingsPath === path && text === before.written ? before.original : text;
    const also = before?.companion;
    state.installed[provider] = {
      settingsPath: path,
      original,
      written: next,
      at: new Date().toISOString(),
      ...(companion
        ? {
            companion: {
              path: companion.path,
              original:
                also && also.path === companion.path && companion.text === also.written
                  ? also.original
                  : companion.text,
              written: companion.next,
            },
          }
        : {}),
    };
    return { agent: provider, path, did: "installed" };
  });
  writeState(env, state);
  return out;
}

/** The companion file before and after install (computed before anything is written: it may refuse). */
function companionInstall(companion: HookCompanion, env: Env, settings: string, settingsPath: string) {
  const path = companion.path(env, home(env));
  const text = read(path);
  const next = companion.install(text, settings, settingsPath);
  return { path, text, next };
}

function writeChanged(path: string, before: string | null, after: string): void {
  if (after === before) return;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, after);
}

export type RemoveOutcome = { agent: string; path: string; did: "restored" | "removed" | "not installed" | "failed" };

export function remove(env: Env, agents: readonly HookAgent[]): RemoveOutcome[] {
  const state = readState(env);
  const out = agents.map(({ provider, hook }): RemoveOutcome => {
    const record = state.installed[provider];
    const path = record?.settingsPath ?? hook.settingsPath(env, home(env));
    const did = restore(path, record, (text) => hook.remove(text));
    if (did === "failed") return { agent: provider, path, did };
    delete state.installed[provider];
    const { companion } = hook;
    if (!companion) return { agent: provider, path, did };
    const also = restore(record?.companion?.path ?? companion.path(env, home(env)), record?.companion, (text) =>
      companion.remove(text),
    );
    if (also === "not installed" || also === did) return { agent: provider, path, did };
    return { agent: provider, path, did: did === "not installed" ? also : "removed" };
  });
  writeState(env, state);
  return out;
}

/** One file back as install found it when it still holds what install wrote, else without cairn's entry. */
function restore(
  path: string,
  record: { original: string | null; written: string } | undefined,
  without: (text: string) => string | null,
): RemoveOutcome["did"] {
  const text = read(path);
  if (text === null) return "not installed";
  if (record && text === record.written) {
    if (record.original === null) rmSync(path);
    else writeFileSync(path, record.original);
    return "restored";
  }
  let next: string | null;
  try {
    next = without(text);
  } catch {
    // Settings cairn cannot read: if cairn wrote into them, say so (they are left as they are).
    return record ? "failed" : "not installed";
  }
  if (next === null) return "not installed";
  writeFileSync(path, next);
  return "removed";
}

export interface AgentStatus {
  agent: string;
  name: string;
  path: string;
  /** `extension`: pi, where cairn's own extension gives the brief (no settings file). */
  installed: boolean | "unreadable" | "extension";
  runs: HooksState["runs"][string] | null;
}

export async function status(env: Env): Promise<{
  state: string;
  optOut: string[];
  optIn: string[];
  optInOnly: boolean;
  budget: number | null;
  agents: AgentStatus[];
}> {
  const state = readState(env);
  const agents = (await hookAgents()).map(({ provider, name, hook }): AgentStatus => {
    const path = hook.settingsPath(env, home(env));
    let installed: AgentStatus["installed"] = false;
    try {
      const text = read(path);
      const { companion } = hook;
      installed =
        text !== null &&
        hook.installed(text) &&
        (!companion || companion.installed(read(companion.path(env, home(env))), text, path));
    } catch {
      installed = "unreadable";
    }
    return { agent: provider, name, path, installed, runs: state.runs[provider] ?? null };
  });
  const pi = state.runs["pi"];
  if (pi) agents.push({ agent: "pi", name: "pi", path: "", installed: "extension", runs: pi });
  return {
    state: statePath(env),
    optOut: state.optOut,
    optIn: state.optIn,
    optInOnly: state.optInOnly === true,
    budget: state.budget ?? null,
    agents,
  };
}

/** `off`: no brief in `dir` and below; `on` takes that back, and opts the folder in. */
export function optOut(env: Env, dir: string, off: boolean): HooksState {
  const state = readState(env);
  const at = resolve(dir);
  state.optOut = state.optOut.filter((d) => d !== at);
  state.optIn = state.optIn.filter((d) => d !== at);
  (off ? state.optOut : state.optIn).push(at);
  writeState(env, state);
  return state;
}

/** Briefs everywhere but where opted out (the default), or only where opted in. */
export function setOptInOnly(env: Env, only: boolean): void {
  const state = readState(env);
  if (only) state.optInOnly = true;
  else delete state.optInOnly;
  writeState(env, state);
}

export function setBudget(env: Env, budget: number): void {
  const state = readState(env);
  state.budget = budget;
  writeState(env, state);
}
