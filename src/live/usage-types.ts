/**
 * What the page's Usage view reads from the `usage` answer (`src/app/catalog/usage.ts`), written out without
 * imports as `history-types.ts` is; `server/history-shapes.ts` checks that the answer still carries these fields.
 */

export interface UsageTotalsView {
  input: number;
  output: number;
  cache_read: number;
  cache_write: number;
  reasoning: number;
  total: number;
  /** By cairn's price table, over the calls it prices. */
  cost: number;
  calls: number;
  unpriced_calls: number;
  /** What the agents priced their own calls at (pi), or null where none did. */
  recorded_cost: number | null;
}

export interface UsagePartView {
  name: string;
  total: number;
  cost: number;
}

export interface UsageGroupView extends UsageTotalsView {
  key: string;
  first: string | null;
  last: string | null;
  by_model: UsagePartView[];
  by_agent: UsagePartView[];
  session?: { session_id: string; provider: string; project: string | null; title: string | null };
}

export interface UsageAnswerView {
  by: string;
  time_zone: string;
  since: string | null;
  until: string | null;
  groups: UsageGroupView[];
  totals: UsageTotalsView;
  unpriced_models: Array<{ model: string; calls: number }>;
  prices: string[];
  more: number;
  agents_without_usage: string[];
}
