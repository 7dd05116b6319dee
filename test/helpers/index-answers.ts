/**
 * What an index answers, as digests per session and section (events, edges, bundles), problems, counts and the
 * search command's answers to queries of every kind, so that two indexes of the same transcripts can be compared
 * and a difference names the session and what differs. Paths are written placeless (the temp HOME and the real
 * fixtures' folder named, not spelled).
 */
import { createHash } from "node:crypto";
import { cpSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { compareVersions } from "../../scripts/clients/install.ts";
import { openStore } from "../../src/store/sqlite/store.ts";
import { cairn } from "./cli.ts";
import { REPO } from "./transcripts.ts";

/** Queries of every kind the search command takes, over words the fixtures hold. */
export const QUERIES = [
  "test",
  "error",
  "decision:",
  "tool:bash",
  "kind:tool_result",
  "file:src",
  "cmd:git",
  "theme selector",
  "TASK-C run the test once more",
  "provider:pi failed",
  "test:fail",
  "resume:",
];

const CLIENTS = join(REPO, "test", "fixtures", "clients");

/** Every agent's newest client fixture copied into one HOME, where `cairn index` finds them by default. */
export function clientsHome(home: string): void {
  for (const agent of readdirSync(CLIENTS).sort()) {
    const newest = readdirSync(join(CLIENTS, agent)).sort(compareVersions).at(-1)!;
    cpSync(join(CLIENTS, agent, newest, "home"), home, { recursive: true });
  }
}

export function indexAnswers(
  db: string,
  where: { home: string; real: string; env: Record<string, string> },
): Record<string, string> {
  const placeless = (_key: string, v: unknown) =>
    typeof v === "string" ? v.split(where.home).join("~").split(where.real).join("<real>") : v;
  const digest = (value: unknown): string =>
    createHash("sha256").update(JSON.stringify(value, placeless)).digest("hex").slice(0, 16);
  const out: Record<string, string> = {};
  const store = openStore(db, { readonly: true });
  try {
    const sessions = store.listSessions({ limit: 100_000 });
    out["sessions"] = digest(sessions.map((s) => ({ ...s })).sort((a, b) => a.session_id.localeCompare(b.session_id)));
    for (const s of sessions) {
      const events = store.sessionEvents(s.session_id);
      out[`${s.session_id} events`] = digest(events);
      out[`${s.session_id} edges`] = digest(
        events.map((e) => [store.edgesFrom(e.event_id), store.edgesTo(e.event_id)]),
      );
      const carried = store.sessionBundles(s.session_id);
      const bundles = carried.bundles.map((b) => ({ ...b, code: b.code ? b.code.toString("base64") : null }));
      out[`${s.session_id} bundles`] = digest({ ...carried, bundles });
    }
    out["problems"] = digest(store.problems(100_000));
    out["counts"] = digest(store.counts());
  } finally {
    store.close();
  }
  for (const q of QUERIES)
    for (const mode of ["lexical", "hybrid"]) {
      const r = cairn(["search", q, "--json", "--limit", "25", "--mode", mode, "--db", db], { env: where.env });
      out[`search ${mode} ${q}`] = `${r.code} ${digest(r.code === 0 ? JSON.parse(r.stdout) : r.stderr)}`;
    }
  return out;
}
