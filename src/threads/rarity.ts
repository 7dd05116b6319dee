/**
 * Which shared entities are rare enough to join sessions. A key that most sessions have says nothing about
 * which of them belong together, and with connected components one such key would chain unrelated work into a
 * single thread; so frequency is measured over the whole index (never only the filtered part, so a `--project`
 * filter cannot change which sessions join) and again inside the project where the key is most used.
 */
import { baseName, isDefaultBranch, isGenericSignature, isUbiquitousFile } from "./names.ts";
import { JOIN_KINDS, type JoinKind } from "./types.ts";
import type { WorkUnit } from "./units.ts";

/** A key in at most this many units is never common by frequency: small indexes cannot estimate shares. */
export const MIN_COMMON_LIMIT = 3;
/** A key in more units than this is common at any index size: no piece of work spans that many sessions. */
export const MAX_KEY_SESSIONS = 12;
/** A file's base name seen in at least this many projects (and this share of them) is a generic name. */
export const BASENAME_MIN_PROJECTS = 3;
export const BASENAME_PROJECT_SHARE = 0.1;

export const EXCLUSIONS = ["name", "common_basename", "common", "common_in_project"] as const;
export type Exclusion = (typeof EXCLUSIONS)[number];

export interface Rarity {
  /** Join keys (rare entities in two or more units) → the units that have them, ascending. */
  rare: Map<string, number[]>;
  /** Keys in two or more units that are not join keys, and why. */
  excluded: Map<string, Exclusion>;
}

/** The most units out of `n` a key may appear in and still be rare: a minority, and never more than the cap. */
export function commonLimit(n: number): number {
  return Math.min(MAX_KEY_SESSIONS, Math.max(MIN_COMMON_LIMIT, Math.floor(n / 2)));
}

export function kindOf(entityId: string): JoinKind | null {
  const colon = entityId.indexOf(":");
  const kind = colon === -1 ? "" : entityId.slice(0, colon);
  return (JOIN_KINDS as readonly string[]).includes(kind) ? (kind as JoinKind) : null;
}

export function keyOf(entityId: string): string {
  return entityId.slice(entityId.indexOf(":") + 1);
}

/** `keyUnits`: each entity id → the distinct units linked to it, ascending. */
export function rareKeys(units: readonly WorkUnit[], keyUnits: ReadonlyMap<string, readonly number[]>): Rarity {
  const projectSize = new Map<string, number>();
  for (const u of units) projectSize.set(u.project, (projectSize.get(u.project) ?? 0) + 1);
  const basenameLimit = Math.max(BASENAME_MIN_PROJECTS, Math.ceil(projectSize.size * BASENAME_PROJECT_SHARE));
  const commonBasenames = commonFileNames(units, keyUnits, basenameLimit);
  const overall = commonLimit(units.length);

  const rare = new Map<string, number[]>();
  const excluded = new Map<string, Exclusion>();
  for (const [id, members] of keyUnits) {
    const kind = kindOf(id);
    if (kind === null || members.length < 2) continue;
    const key = keyOf(id);
    const why = byName(kind, key, commonBasenames) ?? byFrequency(units, members, overall, projectSize);
    if (why) excluded.set(id, why);
    else rare.set(id, [...members]);
  }
  return { rare, excluded };
}

function byName(kind: JoinKind, key: string, commonBasenames: ReadonlySet<string>): Exclusion | null {
  switch (kind) {
    case "file":
      if (isUbiquitousFile(key)) return "name";
      return commonBasenames.has(baseName(key)) ? "common_basename" : null;
    case "branch":
      return isDefaultBranch(key) ? "name" : null;
    case "error_signature":
      return isGenericSignature(key) ? "name" : null;
  }
}

function byFrequency(
  units: readonly WorkUnit[],
  members: readonly number[],
  overall: number,
  projectSize: ReadonlyMap<string, number>,
): Exclusion | null {
  if (members.length > overall) return "common";
  if (members.length <= MIN_COMMON_LIMIT) return null;
  // The home project is where the key is used most; ties go to the first name, so the answer is stable.
  const inProject = new Map<string, number>();
  for (const m of members) {
    const p = units[m]!.project;
    inProject.set(p, (inProject.get(p) ?? 0) + 1);
  }
  let home = "";
  let most = 0;
  for (const [p, n] of inProject) {
    if (n > most || (n === most && p < home)) {
      home = p;
      most = n;
    }
  }
  return most > commonLimit(projectSize.get(home) ?? 0) ? "common_in_project" : null;
}

/** Base names of files that appear in many projects (`index.ts`, `utils.py`): generic names, not specific work. */
function commonFileNames(
  units: readonly WorkUnit[],
  keyUnits: ReadonlyMap<string, readonly number[]>,
  limit: number,
): Set<string> {
  const projects = new Map<string, Set<string>>();
  for (const [id, members] of keyUnits) {
    if (!id.startsWith("file:")) continue;
    const base = baseName(keyOf(id));
    const set = projects.get(base) ?? new Set<string>();
    projects.set(base, set);
    for (const m of members) set.add(units[m]!.project);
  }
  const out = new Set<string>();
  for (const [base, set] of projects) if (set.size >= limit) out.add(base);
  return out;
}
