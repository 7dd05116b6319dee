/** open / closed: from the checks and the last tool result of the thread's latest sessions. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listThreads } from "../../src/threads/list.ts";
import type { Thread } from "../../src/threads/types.ts";
import { indexWork, sid, Work, type WorkIndex } from "./work.ts";

const at = (h: number) => new Date(Date.UTC(2026, 0, 1, h)).toISOString();
/** A pair of sessions on their own two files, so each case is its own thread. */
const pair = (name: string, h: number, first: (w: Work) => Work, latest: (w: Work) => Work): Work[] => {
  const files = [`src/${name}/one.ts`, `src/${name}/two.ts`];
  return [
    first(new Work("claude", sid(`${name}1`), { start: at(h) }).prompt(name).edit(...files)),
    latest(new Work("codex", sid(`${name}2`), { start: at(h + 1) }).prompt(name).read(...files)),
  ];
};

let w: WorkIndex;
let threads: Thread[];
beforeAll(() => {
  w = indexWork(
    ...pair(
      "failing",
      1,
      (x) => x.test(0),
      (x) => x.test(2),
    ),
    ...pair(
      "passing",
      3,
      (x) => x.test(2),
      (x) => x.test(0),
    ),
    ...pair(
      "stopped",
      5,
      (x) => x,
      (x) => x.test(0).run("git push", "error: failed to push some refs to 'origin'", 1),
    ),
    ...pair(
      "unfixed",
      7,
      (x) => x.test(1),
      (x) => x.run("git status", "On branch x"),
    ),
    ...pair(
      "quiet",
      9,
      (x) => x,
      (x) => x.run("ls", "src"),
    ),
  );
  threads = listThreads(w.store).threads;
});
afterAll(() => w.close());
const thread = (name: string) => threads.find((t) => t.shared.some((e) => e.display.startsWith(`src/${name}/`)))!;

describe("labels", () => {
  it("open when a check failed in its last run in the latest session", () => {
    const t = thread("failing");
    expect(t.label).toBe("open");
    expect(t.label_reason).toBe("'npx vitest run' (1 failing) failed in its last run in the latest session");
  });

  it("closed when the latest session's checks passed last", () => {
    const t = thread("passing");
    expect(t.label).toBe("closed");
    expect(t.label_reason).toContain("checks passed in their last run in the latest session");
  });

  it("open when the latest session ended on an error, even after passing checks", () => {
    const t = thread("stopped");
    expect(t.label).toBe("open");
    expect(t.label_reason).toBe("the latest session ended on an error: error: failed to push some refs to 'origin'");
  });

  it("open when an earlier session's check failed and no later session ran one", () => {
    const t = thread("unfixed");
    expect(t.label).toBe("open");
    expect(t.label_reason).toBe(`'npx vitest run' (1 failing) failed in its last run in session ${sid("unfixed1")}`);
  });

  it("closed when nothing ran a check and nothing failed at the end", () => {
    const t = thread("quiet");
    expect(t.label).toBe("closed");
    expect(t.label_reason).toBe("no check ran and the latest session did not end on an error");
  });

  it("every case is its own thread", () => {
    expect(threads).toHaveLength(5);
  });
});
