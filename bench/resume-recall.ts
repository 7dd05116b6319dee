/**
 * Held-out predictive recall (resume-method §4.8): cut a session at t; the gold set is the entities used in the next
 * W events that already occurred before t — files, command heads, error signatures, identifiers (in later edits'
 * old text and backticked in later user messages); recall is the share of them a context mentions. No labels, no
 * model: what the next events actually touched is the judge.
 */
import { backticked, commandHead, identifiersIn, mentionsCommand, signatureView } from "../src/resume/entities.ts";
import { displayPath } from "../src/resume/file-states.ts";
import { isTypedUserMessage } from "../src/resume/requests.ts";
import { toolInputOfEvent } from "../src/topology/tool-call-input.ts";
import type { SessionEvent } from "../src/topology/types.ts";

export const ENTITY_TYPES = ["file", "command", "error", "identifier"] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

export interface Gold {
  type: EntityType;
  value: string;
  /** For files: the path as shown relative to the working directory. */
  display?: string;
}

const DERIVED = new Set(["file_action", "command", "test_result", "error", "decision", "outcome"]);

export function isPrimary(e: SessionEvent): boolean {
  return !DERIVED.has(e.event_type);
}

/** The text an edit replaced: what the agent needed to know about the file before the cut. */
function editedOldText(e: SessionEvent): string {
  if (e.event_type !== "tool_call" || !/edit|replace|patch/i.test(e.tool_name ?? "")) return "";
  if (/patch/i.test(e.tool_name ?? ""))
    return e.text
      .split("\n")
      .filter((l) => l.startsWith("-") || l.startsWith(" "))
      .join("\n");
  const input = toolInputOfEvent(e);
  return input?.kind === "edit" ? (input.edits ?? []).map((x) => x.old).join("\n") : "";
}

interface EntitySets {
  files: Set<string>;
  commands: Set<string>;
  errors: Set<string>;
}

function entitySets(events: readonly SessionEvent[]): EntitySets {
  const out: EntitySets = { files: new Set(), commands: new Set(), errors: new Set() };
  for (const e of events) {
    if (e.file_path && (e.event_type === "tool_call" || e.event_type === "file_action")) out.files.add(e.file_path);
    if (e.event_type === "command" && e.command) {
      const head = commandHead(e.command);
      if (head) out.commands.add(head);
    }
    if (e.event_type === "error" && typeof e.meta["signature"] === "string")
      out.errors.add(e.meta["signature"] as string);
  }
  return out;
}

/** Gold entities for a cut: used in `window`, already seen in `prefix`. */
export function goldEntities(
  prefix: readonly SessionEvent[],
  window: readonly SessionEvent[],
  cwd: string | null,
): Gold[] {
  const before = entitySets(prefix);
  const after = entitySets(window);
  const out: Gold[] = [];
  for (const f of [...after.files].sort())
    if (before.files.has(f)) out.push({ type: "file", value: f, display: displayPath(f, cwd) });
  for (const c of [...after.commands].sort()) if (before.commands.has(c)) out.push({ type: "command", value: c });
  for (const s of [...after.errors].sort()) if (before.errors.has(s)) out.push({ type: "error", value: s });
  const prefixIds = new Set<string>();
  for (const e of prefix) if (isPrimary(e)) identifiersIn(e.text, prefixIds);
  const used = new Set<string>();
  for (const e of window) {
    identifiersIn(editedOldText(e), used);
    if (isTypedUserMessage(e)) for (const b of backticked(e.text)) for (const id of identifiersIn(b)) used.add(id);
  }
  for (const id of [...used].sort()) if (prefixIds.has(id)) out.push({ type: "identifier", value: id });
  return out;
}

/** Which gold entities a context text mentions. */
export function present(text: string, gold: readonly Gold[]): boolean[] {
  let view: string | null = null;
  return gold.map((g) => {
    switch (g.type) {
      case "file":
        return text.includes(g.value) || (g.display !== undefined && text.includes(g.display));
      case "command":
        return mentionsCommand(text, g.value);
      case "error":
        view ??= signatureView(text);
        return view.includes(g.value) || text.includes(g.value);
      case "identifier":
        return new RegExp(`(^|[^\\w$])${g.value.replace(/[.$]/g, "\\$&")}($|[^\\w$])`).test(text);
    }
    return false;
  });
}

export interface Recall {
  all: number;
  byType: Record<EntityType, { hit: number; total: number }>;
  total: number;
}

export function recallOf(text: string, gold: readonly Gold[]): Recall {
  const hits = present(text, gold);
  const byType = Object.fromEntries(ENTITY_TYPES.map((t) => [t, { hit: 0, total: 0 }])) as Recall["byType"];
  let hit = 0;
  gold.forEach((g, i) => {
    byType[g.type].total++;
    if (hits[i]) {
      byType[g.type].hit++;
      hit++;
    }
  });
  return { all: gold.length === 0 ? 1 : hit / gold.length, byType, total: gold.length };
}

/** The serialised prefix an agent saw, one event per block: what tail truncation keeps the end of. */
export function serialise(e: SessionEvent): string {
  const who = e.event_type === "tool_call" ? `${e.tool_name ?? "tool"} call` : e.event_type.replace("_", " ");
  return `[${who}] ${e.text}`;
}

/** Tail truncation: the newest events whole, then the end of the one before, up to `budget` tokens. */
export function tailTruncate(prefix: readonly SessionEvent[], budget: number, count: (s: string) => number): string {
  const blocks: string[] = [];
  let used = 0;
  for (let i = prefix.length - 1; i >= 0; i--) {
    const e = prefix[i]!;
    if (!isPrimary(e)) continue;
    const block = serialise(e);
    const n = count(block) + 1;
    if (used + n <= budget) {
      blocks.unshift(block);
      used += n;
      continue;
    }
    const room = budget - used;
    if (room > 8) {
      // The end of the block, shortened until it fits.
      let chars = Math.min(block.length, room * 4);
      let part = block.slice(block.length - chars);
      while (chars > 0 && count(part) + 1 > room) {
        chars = Math.floor(chars * 0.85);
        part = block.slice(block.length - chars);
      }
      if (chars > 0) blocks.unshift(part);
    }
    break;
  }
  return blocks.join("\n");
}
