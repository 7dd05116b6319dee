/** Which sessions join: rare shared keys do, ubiquitous and frequent ones do not; subagents fold into parents. */
import { afterEach, describe, expect, it } from "vitest";
import { buildThreadIndex, threadIdOf } from "../../src/threads/build.ts";
import { listThreads } from "../../src/threads/list.ts";
import { indexWork, sid, Work, type WorkIndex } from "./work.ts";

let open: WorkIndex | null = null;
afterEach(() => {
  open?.close();
  open = null;
});
const index = (...work: Work[]) => {
  open = indexWork(...work);
  return open;
};
const at = (h: number, m = 0) => new Date(Date.UTC(2026, 0, 1, h, m)).toISOString();
const claude = (name: string, h: number, opts: { cwd?: string; branch?: string } = {}) =>
  new Work("claude", sid(name), { start: at(h), ...opts }).prompt(`work ${name}`);
const codex = (name: string, h: number, opts: { cwd?: string; branch?: string } = {}) =>
  new Work("codex", sid(name), { start: at(h), ...opts }).prompt(`work ${name}`);
const pi = (name: string, h: number, opts: { cwd?: string } = {}) =>
  new Work("pi", sid(name), { start: at(h), ...opts }).prompt(`work ${name}`);
/** Session ids of each multi-session thread, by thread. */
const joined = (w: WorkIndex) => listThreads(w.store).threads.map((t) => t.sessions.map((s) => s.session_id).sort());

describe("joining", () => {
  it("two sessions of different agents that share two rare files join", () => {
    const w = index(
      claude("a", 1).edit("src/auth/token.ts", "src/auth/refresh.ts"),
      codex("b", 2).read("src/auth/token.ts").edit("src/auth/refresh.ts"),
      pi("c", 3).edit("src/ui/theme.ts", "src/ui/colors.ts"),
    );
    const { threads, total } = listThreads(w.store);
    expect(total).toBe(1);
    const t = threads[0]!;
    expect(t.sessions.map((s) => [s.provider, s.session_id])).toEqual([
      ["claude", sid("a")],
      ["codex", sid("b")],
    ]);
    expect(t.providers).toEqual(["claude", "codex"]);
    expect(t.projects).toEqual(["app"]);
    expect(t.shared.map((e) => [e.kind, e.display, e.sessions])).toEqual([
      ["file", "src/auth/refresh.ts", 2],
      ["file", "src/auth/token.ts", 2],
    ]);
    expect(t.shared[0]!.session_ids).toEqual([sid("a"), sid("b")]);
    expect(t.started_at).toBe(at(1));
    expect(t.updated_at! > at(2)).toBe(true);
  });

  it("one shared rare file is not enough", () => {
    const w = index(claude("a", 1).edit("src/auth/token.ts", "src/auth/a.ts"), pi("b", 2).edit("src/auth/token.ts"));
    expect(joined(w)).toEqual([]);
    const all = listThreads(w.store, { includeSingle: true });
    expect(all.threads.map((t) => t.sessions.length)).toEqual([1, 1]);
  });

  it("package.json, other ubiquitous files and scratch files do not count, even in a tiny index", () => {
    const w = index(
      claude("a", 1).read("package.json", "README.md", "tsconfig.json", "pnpm-lock.yaml", "/tmp/out.txt"),
      codex("b", 2).read("package.json", "README.md", "tsconfig.json", "pnpm-lock.yaml", "/tmp/out.txt"),
      claude("c", 3).edit("src/auth/token.ts", "package.json", ".gitignore", "tsconfig.build.json", "CHANGELOG.md"),
      pi("d", 4).edit("src/auth/token.ts", "package.json", ".gitignore", "tsconfig.build.json", "CHANGELOG.md"),
    );
    expect(joined(w)).toEqual([]);
    const { rarity } = buildThreadIndex(w.store);
    expect(rarity.excluded.get("file:/w/app/package.json")).toBe("name");
    expect(rarity.excluded.get("file:/tmp/out.txt")).toBe("name");
    expect(rarity.excluded.get("file:/w/app/tsconfig.build.json")).toBe("name");
    expect(rarity.rare.has("file:/w/app/src/auth/token.ts")).toBe(true);
  });

  it("a key in most sessions is excluded by frequency, and rare keys still join", () => {
    const common = ["src/core.ts", "src/db.ts"];
    const w = index(
      claude("a", 1)
        .read(...common)
        .edit("src/auth/token.ts", "src/auth/refresh.ts"),
      codex("b", 2)
        .read(...common)
        .edit("src/auth/token.ts", "src/auth/refresh.ts"),
      pi("c", 3).read(...common),
      claude("d", 4).read(...common),
      codex("e", 5).read(...common),
      pi("f", 6)
        .read(...common)
        .edit("src/other.ts"),
    );
    const { rarity } = buildThreadIndex(w.store);
    expect(rarity.excluded.get("file:/w/app/src/core.ts")).toBe("common");
    expect(rarity.excluded.get("file:/w/app/src/db.ts")).toBe("common");
    expect(joined(w)).toEqual([[sid("a"), sid("b")]]);
    expect(listThreads(w.store).threads[0]!.shared.map((e) => e.display)).toEqual([
      "src/auth/refresh.ts",
      "src/auth/token.ts",
    ]);
  });

  it("a key common inside its project is excluded even when the index is large", () => {
    const w = index(
      ...["a", "b", "c", "d"].map((n, i) => claude(n, i, { cwd: "/w/small" }).read("src/hub.ts", "src/glue.ts")),
      ...Array.from({ length: 6 }, (_, i) => pi(`o${i}`, 10 + i, { cwd: `/w/other${i}` }).edit("src/x.ts")),
    );
    const { rarity } = buildThreadIndex(w.store);
    expect(rarity.excluded.get("file:/w/small/src/hub.ts")).toBe("common_in_project");
    expect(joined(w)).toEqual([]);
  });

  it("a file name found in many projects (index.ts) is generic and does not count", () => {
    const w = index(
      claude("a", 1).edit("src/index.ts", "src/auth/token.ts"),
      codex("b", 2).edit("src/index.ts", "src/auth/token.ts"),
      pi("c", 3, { cwd: "/w/api" }).edit("src/index.ts"),
      pi("d", 4, { cwd: "/w/web" }).edit("src/index.ts"),
    );
    const { rarity } = buildThreadIndex(w.store);
    expect(rarity.excluded.get("file:/w/app/src/index.ts")).toBe("common_basename");
    expect(joined(w)).toEqual([]);
  });

  it("error signatures and branches are join keys; default branches are not", () => {
    const w = index(
      claude("a", 1, { branch: "feat-auth" }).typeError("src/auth/token.ts"),
      codex("b", 2, { branch: "feat-auth" }).typeError("src/auth/token.ts"),
      claude("c", 3, { branch: "main" }).typeError("src/ui/theme.ts", "TS2554"),
      codex("d", 4, { branch: "main" }).typeError("src/ui/theme.ts", "TS2554"),
    );
    expect(joined(w)).toEqual([[sid("a"), sid("b")]]);
    const t = listThreads(w.store).threads[0]!;
    expect(t.shared.map((e) => [e.kind, e.display])).toEqual([
      // keyed by the signature, shown as the first session wrote it
      ["error_signature", expect.stringMatching(/token\.ts\(\d+,\d+\): error TS\d+: Type 'string' is not assignable/)],
      ["branch", "feat-auth"],
    ]);
    expect(buildThreadIndex(w.store).rarity.excluded.get("branch:main")).toBe("name");
  });

  it("subagent sessions fold into their parent: members of its thread, never joins of their own", () => {
    const parent = claude("m", 1).prompt("delegate");
    const sub = new Work("claude", "sub1", { start: at(1, 5), parent: sid("m") })
      .prompt("look at auth")
      .edit("src/auth/token.ts", "src/auth/refresh.ts");
    const helperOnly = claude("n", 5, { cwd: "/w/api" }).edit("src/a.ts", "src/b.ts");
    const helperSub = new Work("claude", "sub2", { start: at(5, 5), cwd: "/w/api", parent: sid("n") }).edit(
      "src/a.ts",
      "src/b.ts",
    );
    const w = index(parent, sub, pi("p", 3).read("src/auth/token.ts", "src/auth/refresh.ts"), helperOnly, helperSub);
    const { threads } = listThreads(w.store);
    expect(threads).toHaveLength(1);
    expect(threads[0]!.sessions.map((s) => [s.session_id, s.kind, s.folded_into])).toEqual([
      [sid("m"), "main", null],
      [`${sid("m")}:agent-sub1`, "subagent", sid("m")],
      [sid("p"), "main", null],
    ]);
    expect(threads[0]!.shared[0]!.session_ids).toEqual([sid("m"), sid("p")]);
    // The parent and the subagent that share files with it stay one session, not a thread of two.
    const single = listThreads(w.store, { includeSingle: true, project: ["api"] }).threads;
    expect(single.map((t) => t.sessions.map((s) => s.folded_into))).toEqual([[null, sid("n")]]);
  });

  it("a fork joins the session it was forked from, sharing or not", () => {
    const w = index(
      pi("a", 1).edit("src/auth/token.ts"),
      new Work("pi", sid("f"), { start: at(2), parent: sid("a") }).prompt("try another way").edit("src/ui/x.ts"),
    );
    const t = listThreads(w.store).threads;
    expect(t.map((x) => x.sessions.map((s) => [s.session_id, s.kind, s.folded_into]))).toEqual([
      [
        [sid("a"), "main", null],
        [sid("f"), "fork", null],
      ],
    ]);
    expect(t[0]!.shared).toEqual([]);
  });

  it("thread ids come from the earliest session and stay the same when a later session joins", () => {
    const w = index(
      claude("a", 1).edit("src/auth/token.ts", "src/auth/refresh.ts"),
      codex("b", 2).edit("src/auth/token.ts", "src/auth/refresh.ts"),
    );
    const before = listThreads(w.store).threads[0]!;
    expect(before.thread_id).toBe(threadIdOf(sid("a")));
    expect(before.thread_id).toMatch(/^[0-9a-f]{12}$/);
    w.add(pi("c", 9).read("src/auth/refresh.ts").edit("src/auth/token.ts"));
    const after = listThreads(w.store).threads;
    expect(after).toHaveLength(1);
    expect(after[0]!.thread_id).toBe(before.thread_id);
    expect(after[0]!.sessions.map((s) => s.provider)).toEqual(["claude", "codex", "pi"]);
    expect(after[0]!.shared.map((e) => e.sessions)).toEqual([3, 3]);
  });

  it("threads chain through sessions that share keys pairwise (connected components)", () => {
    const w = index(
      claude("a", 1).edit("src/a1.ts", "src/a2.ts"),
      codex("b", 2).edit("src/a1.ts", "src/a2.ts", "src/b1.ts", "src/b2.ts"),
      pi("c", 3).edit("src/b1.ts", "src/b2.ts"),
    );
    expect(joined(w)).toEqual([[sid("a"), sid("b"), sid("c")]]);
  });

  it("--project keeps threads with a session in the project, most recent first, and limit cuts", () => {
    const w = index(
      claude("a", 1).edit("src/a1.ts", "src/a2.ts"),
      pi("b", 2).edit("src/a1.ts", "src/a2.ts"),
      claude("c", 5, { cwd: "/w/api" }).edit("src/c1.ts", "src/c2.ts"),
      codex("d", 6, { cwd: "/w/api" }).edit("src/c1.ts", "src/c2.ts"),
    );
    expect(listThreads(w.store).threads.map((t) => t.projects)).toEqual([["api"], ["app"]]);
    expect(listThreads(w.store, { project: ["API"] }).threads.map((t) => t.projects)).toEqual([["api"]]);
    expect(listThreads(w.store, { project: ["w/app"] }).threads.map((t) => t.projects)).toEqual([["app"]]);
    expect(listThreads(w.store, { project: ["nope"] }).threads).toEqual([]);
    const limited = listThreads(w.store, { limit: 1 });
    expect([limited.threads.length, limited.total]).toEqual([1, 2]);
  });

  it("the same index always gives the same threads", () => {
    const work = [
      claude("a", 1).edit("src/a1.ts", "src/a2.ts"),
      pi("b", 2).edit("src/a1.ts", "src/a2.ts"),
      codex("c", 3).edit("src/c1.ts", "src/c2.ts"),
      claude("d", 4).edit("src/c1.ts", "src/c2.ts"),
    ];
    const first = JSON.stringify(listThreads(index(...work).store, { includeSingle: true }));
    open?.close();
    expect(JSON.stringify(listThreads(index(...work).store, { includeSingle: true }))).toBe(first);
  });
});
