/**
 * One brief for one cut and one budget: header, ledger (caps shrunk until it fits), selection, exact fit,
 * validation. Pure over its inputs: the same timeline, budget and counter give the same bytes.
 */
import type { BriefItem, BriefSection, CitationRef, SectionSummary, Validation } from "./brief-types.ts";
import type { Checkpoint } from "./checkpoints.ts";
import { type FileContent, fileContentsOf } from "./file-content.ts";
import { buildLedger } from "./ledger.ts";
import type { Ledger } from "./ledger-types.ts";
import { assemble, renderHeader } from "./render.ts";
import { capsAt, MAX_LEVEL, OPTIONAL_LEVELS, renderLedger } from "./render-ledger.ts";
import { profileForStep } from "./scoring.ts";
import { fitExactly, type Selection, select, selectNames } from "./select.ts";
import type { Timeline } from "./timeline.ts";
import type { TokenCounter } from "./tokens.ts";
import { type Unit, unitsOf } from "./units.ts";
import { sessionEntities, validateBrief } from "./validate.ts";
import { type RankedSymbol, rankSymbols } from "./working-set.ts";

/**
 * The ledger may take this share of the budget before its optional lines shrink (eval:resume at 3 %: at 0.6 a
 * small brief spent half its room on resolved failures and read-only files, less used next than the names).
 */
export const LEDGER_SHARE = 0.45;
/** Unused budget worth one more pass over the names. */
const TOP_UP_MIN = 24;
/** Exact counts spent on filling the rest with names. */
const TOP_UP_ROUNDS = 7;
/** Tokens a section's joins may add or merge away, kept free when the names are counted apart from the rest. */
const JOIN_SLACK = 4;

/** What a cut folds into, computed once and shared by every budget the ladder tries. */
export interface Folded {
  timeline: Timeline;
  ledger: Ledger;
  units: Unit[];
  contents: Map<string, FileContent>;
  entities: Map<string, number>;
  symbols: RankedSymbol[];
}

export function fold(timeline: Timeline, checkpoints: readonly Checkpoint[], targetStep: number | null): Folded {
  const ledger = buildLedger(timeline, checkpoints, targetStep);
  const units = unitsOf(timeline);
  return {
    timeline,
    ledger,
    units,
    contents: fileContentsOf(units),
    entities: sessionEntities(timeline, ledger),
    symbols: rankSymbols(timeline),
  };
}

export interface Attempt {
  text: string;
  tokens: number;
  budget: number;
  sections: BriefSection[];
  summaries: SectionSummary[];
  citations: CitationRef[];
  validation: Validation;
  step: number | null;
}

export interface AttemptOptions {
  budget: number;
  /** Appended last and kept whatever the budget (it is what makes a failed brief usable). */
  pointer?: BriefItem;
  /** The share of the room past which the ledger's optional lines shrink (LEDGER_SHARE unless given). */
  ledgerShare?: number;
}

function count(counter: TokenCounter, items: readonly BriefItem[]): number {
  return items.reduce((n, i) => n + counter.count(i.text) + 1, 0);
}

export function buildAttempt(f: Folded, counter: TokenCounter, opts: AttemptOptions): Attempt {
  const t = f.timeline;
  const step = f.ledger.step.target ?? f.ledger.step.checkpointStep;
  const header = renderHeader({ timeline: t, budget: opts.budget, step: f.ledger.step.target });
  const pointer = opts.pointer ? [opts.pointer] : [];
  const fixed = counter.count(header.text) + count(counter, pointer) + 4;
  const room = Math.max(0, opts.budget - fixed);

  // Optional caps shrink until the ledger takes at most its share; must-keep caps only until it fits at all.
  let level = 0;
  let ledgerItems = renderLedger(f.ledger, capsAt(0));
  let ledgerTokens = count(counter, ledgerItems);
  const share = opts.ledgerShare ?? LEDGER_SHARE;
  while (level < MAX_LEVEL && ledgerTokens > (level < OPTIONAL_LEVELS ? share * room : room)) {
    level++;
    ledgerItems = renderLedger(f.ledger, capsAt(level));
    ledgerTokens = count(counter, ledgerItems);
  }

  const ledgerChars = ledgerItems.reduce((n, i) => n + i.text.length + 1, 0);
  const scale = Math.min(1.8, Math.max(0.8, ledgerTokens / Math.max(1, ledgerChars / 4)));
  const quoted = new Set<string>();
  // A message whose pasted log the ledger only names may still earn a place (head and tail) in the selection.
  for (const m of [f.ledger.goal, ...f.ledger.latest]) if (m && !m.pastes) quoted.add(m.cites[0]!);
  // Section titles and blank lines cost a few tokens each; keep them out of the selection's room.
  const available = room - ledgerTokens - 40;
  const input = {
    units: f.units,
    ledger: f.ledger,
    available,
    scale,
    profile: profileForStep(f.ledger.step.target ?? f.ledger.step.checkpointStep),
    cwd: t.session.cwd,
    contents: f.contents,
    quoted,
    symbols: f.symbols,
    shown: ledgerItems.map((i) => i.text).join("\n"),
  };
  let sel = select(input);
  let picked = input;
  // The ledger's exact/estimate ratio is a first guess for the rest; one more pass with the ratio measured on
  // what was chosen fills the budget closely without overshooting it.
  const chosen = [...sel.context, ...sel.names, ...sel.files, ...sel.recent];
  const estimated = chosen.reduce((n, c) => n + c.estimate, 0);
  if (estimated > 0) {
    const exact = count(counter, chosen);
    const measured = scale * (exact / estimated);
    if (Math.abs(measured - scale) / scale > 0.05) {
      picked = { ...input, scale: measured };
      sel = select(picked);
    }
  }
  fitExactly(sel, counter, Math.max(0, available));

  let sections = toSections(header, ledgerItems, sel, pointer);
  let text = assemble(sections);
  let tokens = counter.count(text);
  // Item counts are not exactly additive across joins; trim until the whole text fits.
  for (let guard = 0; tokens > opts.budget && guard < 20; guard++) {
    if (!trimOne(sel)) break;
    sections = toSections(header, ledgerItems, sel, pointer);
    text = assemble(sections);
    tokens = counter.count(text);
  }
  // Estimates leave some of the budget unused; names are the finest-grained thing to fill it with. The names' room
  // is searched between what fits and what overshoots; each try counts only the names (the rest of the text does
  // not change), and the text is counted whole once at the end.
  if (opts.budget - tokens > TOP_UP_MIN && sel.names.length > 0) {
    // Line by line: the counter caches each line, and most lines of one try are those of the last.
    const namesTokens = (names: readonly BriefItem[]) => count(counter, names);
    const rest = tokens - namesTokens(sel.names);
    // In the units selectNames spends its room in (each name's own estimate), which run above the lines' estimates.
    const estimated = sel.namesRoom;
    const perToken = estimated / Math.max(1, namesTokens(sel.names));
    let low = estimated;
    let high = estimated + (opts.budget - tokens) * perToken * 1.5;
    let best: Selection | null = null;
    let bestTokens = tokens;
    for (let round = 0; round < TOP_UP_ROUNDS && high - low > 4; round++) {
      const room = (low + high) / 2;
      const names = selectNames(picked, room, sel.recent);
      const trial = { ...sel, names: names.items, namesRoom: names.used };
      const trialTokens = rest + namesTokens(trial.names) + JOIN_SLACK;
      if (trialTokens > opts.budget) {
        high = room;
        continue;
      }
      low = room;
      if (trialTokens <= bestTokens) continue;
      best = trial;
      bestTokens = trialTokens;
      if (opts.budget - trialTokens <= TOP_UP_MIN) break;
    }
    // The joins rarely differ from the slack; when they do, the names shrink by what overshot.
    for (let tries = 0; best && tries < 3; tries++) {
      const bestSections = toSections(header, ledgerItems, best, pointer);
      const bestText = assemble(bestSections);
      const exact = counter.count(bestText);
      if (exact <= opts.budget) {
        if (exact > tokens) {
          sel = best;
          sections = bestSections;
          text = bestText;
          tokens = exact;
        }
        break;
      }
      low -= (exact - opts.budget + JOIN_SLACK) * perToken;
      const names = selectNames(picked, low, sel.recent);
      best = { ...sel, names: names.items, namesRoom: names.used };
    }
  }

  // The transcript pointer names what the brief lacks; those names must not count as the facts themselves.
  const validation = validateBrief({
    text: opts.pointer ? assemble(sections.filter((s) => s.name !== "transcript")) : text,
    tokens,
    originalTokens: t.originalTokens,
    ledger: f.ledger,
    entities: f.entities,
  });
  return {
    text,
    tokens,
    budget: opts.budget,
    sections,
    summaries: sections.map((s) => summary(s, counter)),
    citations: citationsOf(sections, t),
    validation,
    step,
  };
}

function toSections(header: BriefItem, ledger: BriefItem[], sel: Selection, pointer: BriefItem[]): BriefSection[] {
  return [
    { name: "header", items: [header] },
    { name: "ledger", items: ledger },
    { name: "context", items: sel.context },
    { name: "names", items: sel.names },
    { name: "files", items: sel.files },
    { name: "recent", items: sel.recent },
    { name: "transcript", items: pointer },
  ];
}

function trimOne(sel: Selection): boolean {
  if (sel.context.length > 0) {
    let worst = 0;
    for (let i = 1; i < sel.context.length; i++) if (sel.context[i]!.priority < sel.context[worst]!.priority) worst = i;
    sel.context.splice(worst, 1);
  } else if (sel.files.length > 0) sel.files.pop();
  else if (sel.names.length > 0) sel.names.pop();
  else if (sel.recent.length > 0) sel.recent.shift();
  else return false;
  return true;
}

function summary(s: BriefSection, counter: TokenCounter): SectionSummary {
  const cites = new Set<string>();
  for (const i of s.items) for (const id of i.cites) cites.add(id);
  return { name: s.name, tokens: count(counter, s.items), items: s.items.length, cites: [...cites] };
}

function citationsOf(sections: readonly BriefSection[], t: Timeline): CitationRef[] {
  const ids = new Set<string>();
  for (const s of sections) for (const i of s.items) for (const id of i.cites) ids.add(id);
  const out: CitationRef[] = [];
  for (const id of ids) {
    const e = t.byId.get(id);
    if (e)
      out.push({
        event_id: e.event_id,
        ordinal: e.ordinal,
        event_type: e.event_type,
        source_file: e.source_file,
        source_line: e.source_line,
      });
  }
  return out.sort((a, b) => a.ordinal - b.ordinal);
}
