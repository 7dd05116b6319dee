import { describe, expect, it } from "vitest";
import { createRecording, EMPTY_RECORDING, type StepCheck } from "../../../src/pi/sequence/recording.ts";

/** Rejects steps starting with "bad"; keeps the rest as typed, like the real check. */
const check: StepCheck = (text) => {
  if (text.startsWith("bad")) return { ok: false, message: `Unsupported step: ${text}` };
  return { ok: true, text };
};

describe("createRecording", () => {
  it("adds new steps at the end, checking each; a rejected one is not added", () => {
    const recording = createRecording([], check);
    expect(recording.submit("one")).toEqual({ ok: true, text: "" });
    expect(recording.submit("  /readonly  ")).toEqual({ ok: true, text: "" });
    expect(recording.submit("bad step")).toEqual({ ok: false, message: "Unsupported step: bad step" });
    expect(recording.steps).toEqual(["one", "/readonly"]);
    expect(recording.slot).toEqual({ kind: "end" });
  });

  it("moves up and down through the steps, keeping the unfinished new step as a draft", () => {
    const recording = createRecording(["one", "two", "three"], check);
    expect(recording.move(-1, "draft")).toEqual({ ok: true, text: "three" });
    expect(recording.move(-1, "three")).toEqual({ ok: true, text: "two" });
    expect(recording.move(-1, "two")).toEqual({ ok: true, text: "one" });
    expect(recording.move(-1, "one")).toEqual({ ok: true, text: "one" });
    expect(recording.slot).toEqual({ kind: "step", index: 0 });
    expect(recording.move(1, "one")).toEqual({ ok: true, text: "two" });
    expect(recording.move(1, "two")).toEqual({ ok: true, text: "three" });
    expect(recording.move(1, "three")).toEqual({ ok: true, text: "draft" });
    expect(recording.slot).toEqual({ kind: "end" });
    expect(recording.steps).toEqual(["one", "two", "three"]);
  });

  it("edits a middle step in place; the edit is checked and a rejected edit keeps the step selected", () => {
    const recording = createRecording(["one", "two", "three"], check);
    recording.move(-1, "");
    recording.move(-1, "three");
    expect(recording.submit("bad two")).toEqual({ ok: false, message: "Unsupported step: bad two" });
    expect(recording.slot).toEqual({ kind: "step", index: 1 });
    expect(recording.move(1, "bad two")).toMatchObject({ ok: false });
    expect(recording.submit("TWO")).toEqual({ ok: true, text: "" });
    expect(recording.steps).toEqual(["one", "TWO", "three"]);
    expect(recording.slot).toEqual({ kind: "end" });
  });

  it("moving away from an edited step saves it", () => {
    const recording = createRecording(["one", "two"], check);
    recording.move(-1, "");
    expect(recording.move(-1, "/readonly")).toEqual({ ok: true, text: "one" });
    expect(recording.steps).toEqual(["one", "/readonly"]);
  });

  it("deletes a step emptied with Enter, or with Backspace on an empty editor", () => {
    const recording = createRecording(["one", "two", "three"], check);
    recording.move(-1, "");
    recording.move(-1, "three");
    expect(recording.submit("   ")).toEqual({ ok: true, text: "" });
    expect(recording.steps).toEqual(["one", "three"]);

    recording.move(-1, "");
    expect(recording.removeSelected()).toEqual({ ok: true, text: "one" });
    expect(recording.steps).toEqual(["one"]);
    expect(recording.slot).toEqual({ kind: "step", index: 0 });
    expect(recording.removeSelected()).toEqual({ ok: true, text: "" });
    expect(recording.steps).toEqual([]);
    expect(recording.slot).toEqual({ kind: "end" });
  });

  it("Backspace on an empty editor at the end selects the last step rather than dropping it", () => {
    const recording = createRecording(["one", "two"], check);
    expect(recording.removeSelected()).toEqual({ ok: true, text: "two" });
    expect(recording.steps).toEqual(["one", "two"]);
    expect(createRecording([], check).removeSelected()).toEqual({ ok: true, text: "" });
  });

  it("inserts a new step above the selected one, checked like any other", () => {
    const recording = createRecording(["one", "three"], check);
    recording.move(-1, "");
    expect(recording.insertAbove("three")).toEqual({ ok: true, text: "" });
    expect(recording.slot).toEqual({ kind: "insert", index: 1 });
    expect(recording.submit("bad")).toMatchObject({ ok: false });
    expect(recording.submit("two")).toEqual({ ok: true, text: "" });
    expect(recording.steps).toEqual(["one", "two", "three"]);

    recording.move(-1, "");
    recording.move(-1, "three");
    recording.move(-1, "two");
    recording.insertAbove("one");
    expect(recording.move(1, "zero")).toEqual({ ok: true, text: "one" });
    expect(recording.steps).toEqual(["zero", "one", "two", "three"]);
  });

  it("an empty inserted step disappears when the editor moves on", () => {
    const recording = createRecording(["one", "two"], check);
    recording.move(-1, "");
    recording.insertAbove("two");
    expect(recording.move(1, "")).toEqual({ ok: true, text: "two" });
    expect(recording.move(-1, "two")).toEqual({ ok: true, text: "one" });
    expect(recording.steps).toEqual(["one", "two"]);
    expect(recording.insertAbove("one")).toEqual({ ok: true, text: "" });
    expect(createRecording([], check).insertAbove("x")).toMatchObject({ ok: false });
  });

  it("finishes with the editor's text committed, and re-checks restored steps", () => {
    const recording = createRecording(["one"], check);
    expect(recording.finish("two")).toEqual({ ok: true, steps: ["one", "two"] });

    const empty = createRecording([], check);
    expect(empty.finish("  ")).toEqual({ ok: false, message: EMPTY_RECORDING });

    const stale = createRecording(["one", "bad old step", "three"], check);
    expect(stale.finish("")).toEqual({
      ok: false,
      message: "Step 2: Unsupported step: bad old step",
      text: "bad old step",
    });
    expect(stale.slot).toEqual({ kind: "step", index: 1 });
    expect(stale.submit("fixed")).toEqual({ ok: true, text: "" });
    expect(stale.finish("")).toEqual({ ok: true, steps: ["one", "fixed", "three"] });
  });

  it("shows restored steps exactly as they were stored", () => {
    expect(createRecording(["/readonly", "/readonly on", "x"], check).steps).toEqual([
      "/readonly",
      "/readonly on",
      "x",
    ]);
  });

  it("knows whether discarding would lose anything", () => {
    const recording = createRecording(["one", "two"], check);
    expect(recording.changed("")).toBe(false);
    expect(recording.changed("typed")).toBe(true);
    recording.move(-1, "draft");
    expect(recording.changed("two")).toBe(true);
    recording.move(1, "two");
    recording.move(-1, "");
    expect(recording.changed("two")).toBe(false);
    expect(recording.changed("two!")).toBe(true);
    recording.submit("two!");
    expect(recording.changed("")).toBe(true);
    expect(createRecording([], check).changed("")).toBe(false);
  });
});
