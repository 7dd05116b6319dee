import { SessionManager } from "@earendil-works/pi-coding-agent";
import { describe, expect, it } from "vitest";
import { latestSnapshot, parseSnapshot, toSnapshotEntry } from "../../../src/pi/sequence/snapshot.ts";
import { SEQUENCE_SNAPSHOT_TYPE } from "../../../src/pi/sequence/types.ts";

const snapshot = (id: string, steps: string[], updatedAt = 1) => ({ version: 1, sequenceId: id, steps, updatedAt });

function sessionWith(...data: unknown[]): SessionManager {
  const session = SessionManager.inMemory("/project");
  for (const item of data) session.appendCustomEntry(SEQUENCE_SNAPSHOT_TYPE, item);
  return session;
}

describe("sequence snapshots", () => {
  it("round-trips a recorded sequence through the persisted entry shape", () => {
    const recorded = { version: 1 as const, id: "seq-1", steps: ["/readonly", "Plan $@"], updatedAt: 42 };
    const entry = toSnapshotEntry(recorded);
    expect(entry).toEqual({ version: 1, sequenceId: "seq-1", steps: ["/readonly", "Plan $@"], updatedAt: 42 });
    expect(parseSnapshot(JSON.parse(JSON.stringify(entry)))).toEqual(recorded);
  });

  it.each([
    ["null", null],
    ["a string", "steps"],
    ["version 2", { ...snapshot("s", ["a"]), version: 2 }],
    ["no id", { version: 1, steps: ["a"], updatedAt: 1 }],
    ["empty id", snapshot("", ["a"])],
    ["steps not an array", { ...snapshot("s", []), steps: "a" }],
    ["no steps", snapshot("s", [])],
    ["a blank step", snapshot("s", ["a", "  "])],
    ["a non-string step", { ...snapshot("s", []), steps: ["a", 3] }],
    ["updatedAt not a number", { ...snapshot("s", ["a"]), updatedAt: "today" }],
  ])("rejects %s", (_name, data) => {
    expect(parseSnapshot(data)).toBeNull();
  });

  it("the newest valid snapshot on the branch wins; malformed newer entries are skipped", () => {
    const session = sessionWith(snapshot("old", ["first"]), snapshot("new", ["second"]), { version: 1, garbage: true });
    expect(latestSnapshot(session.getBranch())).toMatchObject({ id: "new", steps: ["second"] });
  });

  it("ignores entries of other types and other custom types", () => {
    const session = SessionManager.inMemory("/project");
    session.appendCustomEntry("someone-else", snapshot("foreign", ["x"]));
    session.appendCustomMessageEntry(SEQUENCE_SNAPSHOT_TYPE, "not a custom entry", false);
    expect(latestSnapshot(session.getBranch())).toBeNull();
  });

  it("is branch-aware: a snapshot on an abandoned branch is not restored", () => {
    const session = sessionWith(snapshot("base", ["base step"]));
    const fork = session.getLeafId();
    session.appendCustomEntry(SEQUENCE_SNAPSHOT_TYPE, snapshot("abandoned", ["later step"]));
    expect(latestSnapshot(session.getBranch())).toMatchObject({ id: "abandoned" });

    if (fork === null) throw new Error("expected a leaf");
    session.branch(fork);
    session.appendCustomEntry("other", {});
    expect(latestSnapshot(session.getBranch())).toMatchObject({ id: "base" });
    expect(
      session.getEntries().filter((e) => e.type === "custom" && e.customType === SEQUENCE_SNAPSHOT_TYPE),
    ).toHaveLength(2);
  });

  it("a branch without any snapshot restores nothing", () => {
    const session = SessionManager.inMemory("/project");
    session.appendCustomEntry("other", {});
    expect(latestSnapshot(session.getBranch())).toBeNull();
  });
});
