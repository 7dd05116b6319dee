/**
 * What the usage truth counters share: a fixture's calls, each named call kept once at its largest copy (as cairn
 * counts a call its files write more than once), summed per field in cairn's terms.
 */

export interface UsageTruth {
  calls: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number;
}

export type Counts = Omit<UsageTruth, "calls">;

export const n = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.round(v) : 0);

export class Calls {
  private named = new Map<string, Counts>();
  private unnamed: Counts[] = [];
  /** One call's counts; a call named before keeps its largest copy. */
  add(name: string | null, c: Partial<Counts>): void {
    const full: Counts = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0, ...c };
    const size = (x: Counts) => x.input + x.output + x.cacheRead + x.cacheWrite;
    if (size(full) === 0) return;
    if (name === null) this.unnamed.push(full);
    else {
      const before = this.named.get(name);
      if (!before || size(full) > size(before)) this.named.set(name, full);
    }
  }
  result(): UsageTruth {
    const all = [...this.named.values(), ...this.unnamed];
    const sum = (k: keyof Counts) => all.reduce((a, c) => a + c[k], 0);
    return {
      calls: all.length,
      input: sum("input"),
      output: sum("output"),
      cacheRead: sum("cacheRead"),
      cacheWrite: sum("cacheWrite"),
      reasoning: sum("reasoning"),
    };
  }
}
