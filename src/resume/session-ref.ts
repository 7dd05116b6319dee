/** Which session a command means: an id, a unique id prefix, or the most recent main session (in a folder). */
import type { SessionRow, Store } from "../store/types.ts";

export type SessionRef = { id: string } | { latest: true; cwd?: string };

export function resolveSession(store: Store, ref: SessionRef): SessionRow {
  if ("id" in ref) {
    const exact = store.getSession(ref.id);
    if (exact) return exact;
    const found = store.listSessions({ idPrefix: ref.id, limit: 20 });
    if (found.length === 1) return found[0]!;
    if (found.length === 0) throw new Error(`no session ${ref.id} in the index (see 'cairn index')`);
    throw new Error(
      `session prefix ${ref.id} matches ${found.length} sessions (${found
        .slice(0, 5)
        .map((s) => s.session_id)
        .join(", ")}${found.length > 5 ? ", …" : ""}); give more characters`,
    );
  }
  const want = ref.cwd === undefined ? null : trimSlash(ref.cwd);
  const project = want === null ? undefined : [want.slice(want.lastIndexOf("/") + 1)];
  // Sessions come newest first; the project filter narrows the scan before the exact folder comparison.
  const rows = store.listSessions({ kinds: ["main"], ...(project?.[0] ? { project } : {}) });
  const hit = rows.find((s) => want === null || (s.cwd !== null && trimSlash(s.cwd) === want));
  if (!hit) throw new Error(want === null ? "no main session in the index" : `no main session in ${want} in the index`);
  return hit;
}

function trimSlash(p: string): string {
  return p.length > 1 ? p.replace(/\/+$/, "") : p;
}
