/**
 * The ids a surface prints, found in whatever it printed (text, JSON, HTML, a terminal screen) without parsing its
 * format: every token that is an id in the index, or a prefix of one at least 8 characters long. Each is taken as
 * naming the one session, event or thread it is the id of (exactly), or the prefix of; a prefix that fits several
 * names none, and is reported as such — but for the rule cairn documents for sessions (docs/cli.md): a prefix that
 * fits one session and only sessions under it (its subagents, its continuations) names that session.
 */

export type IdKind = "session" | "event" | "thread";

export interface Named {
  kind: IdKind;
  id: string;
}

export interface Printed {
  token: string;
  /** What it names, or null when it fits several (`candidates`). */
  named: Named | null;
  candidates: Named[];
  /** Where it was printed (the first few places). */
  where: string[];
  count: number;
}

const MIN = 8;
/** Id characters: hex and UUIDs, OpenCode's `ses_…`, Cline's `…_gjktq__agent_…`, Claude's `<id>:agent-…`. */
const TOKEN = /[A-Za-z0-9][A-Za-z0-9_:.-]*[A-Za-z0-9]/g;

export class IdBook {
  private readonly all: Named[];
  private readonly exact = new Map<string, Named>();
  readonly printed = new Map<string, Printed>();

  private readonly parents = new Map<string, string | null>();

  constructor(ids: {
    sessions: Array<{ session_id: string; parent_session_id: string | null }>;
    events: string[];
    threads: string[];
  }) {
    for (const s of ids.sessions) this.parents.set(s.session_id, s.parent_session_id);
    this.all = [
      ...ids.sessions.map((s) => ({ kind: "session" as const, id: s.session_id })),
      ...ids.events.map((id) => ({ kind: "event" as const, id })),
      ...ids.threads.map((id) => ({ kind: "thread" as const, id })),
    ];
    for (const n of this.all) this.exact.set(n.id, n);
  }

  /** What a token names: the id it is, else the one id it begins; the candidates when it begins several. */
  classify(token: string): { named: Named | null; candidates: Named[] } {
    const exact = this.exact.get(token);
    if (exact) return { named: exact, candidates: [exact] };
    if (token.length < MIN) return { named: null, candidates: [] };
    const candidates = this.all.filter((n) => n.id.startsWith(token));
    return { named: candidates.length === 1 ? candidates[0]! : this.parentOf(candidates), candidates };
  }

  /** The one session all of `candidates` are (or descend from), when it is among them. */
  private parentOf(candidates: Named[]): Named | null {
    if (candidates.some((c) => c.kind !== "session")) return null;
    const ids = new Set(candidates.map((c) => c.id));
    const root = (id: string): string => {
      let at = id;
      for (let hops = 0; hops < 16; hops++) {
        const up = this.parents.get(at) ?? null;
        if (up === null || !ids.has(up)) return at;
        at = up;
      }
      return at;
    };
    const roots = new Set(candidates.map((c) => root(c.id)));
    return roots.size === 1 ? (candidates.find((c) => roots.has(c.id)) ?? null) : null;
  }

  /** Notes every id `output` prints, as printed by `where`. */
  collect(where: string, output: string): void {
    for (const m of output.matchAll(TOKEN)) {
      // A segment of a file path is transcript text (an agent's temp file named after its session), not an id
      // cairn printed; the page's own links (`/s/ID`, `/e/ID`, `/t/ID`) are.
      const before = output.slice(Math.max(0, m.index - 3), m.index);
      if (before.endsWith("/") && !/\/[set]\/$/.test(before)) continue;
      // `[e:ID]` cites an event; a token may run on into a path's extension or a sentence's full stop.
      for (const raw of [m[0], m[0].replace(/^e:/, "")]) {
        const token = raw.replace(/[.:_-]+$/, "");
        const { named, candidates } = this.classify(token);
        if (candidates.length === 0) continue;
        const entry = this.printed.get(token);
        if (entry) {
          entry.count++;
          if (entry.where.length < 3 && !entry.where.includes(where)) entry.where.push(where);
        } else this.printed.set(token, { token, named, candidates, where: [where], count: 1 });
      }
    }
  }

  /** Printed ids that name nothing for sure: each a line saying where it was printed and what it fits. */
  ambiguous(): string[] {
    return [...this.printed.values()]
      .filter((p) => p.named === null)
      .map(
        (p) =>
          `'${p.token}' (printed ${p.count}× by ${p.where.join("; ")}) fits ${p.candidates.length} ${p.candidates[0]!.kind}s: ${p.candidates.map((c) => c.id).join(", ")}`,
      );
  }

  /** Printed ids that name one thing, by kind. */
  resolvable(kind: IdKind): Printed[] {
    return [...this.printed.values()].filter((p) => p.named?.kind === kind);
  }
}
