import { describe, expect, it } from "vitest";
import {
  createCommandCatalog,
  findOwnSourcePath,
  parseSlash,
  resolveSequence,
  resolveStep,
} from "../../../src/pi/sequence/resolve.ts";
import { cairnCommands, command } from "../helpers/fake-pi.ts";

const OWN = "/pkg/cairn/dist/pi/index.js";
const commands = [
  ...cairnCommands(OWN),
  command("publish", "extension", "/home/ada/.pi/agent/extensions/publish.ts", "user"),
  command("review", "prompt", "/proj/.pi/prompts/review.md"),
  command("skill:lint", "skill", "/proj/.pi/skills/lint/SKILL.md"),
];
const catalog = createCommandCatalog(commands);

describe("recording-time validation", () => {
  it.each([
    ["Plan the implementation for $@", { kind: "prompt", text: "Plan the implementation for $@" }],
    ["/readonly", { kind: "agenticodingCommand", name: "readonly", args: "" }],
    ["/readonly off", { kind: "agenticodingCommand", name: "readonly", args: "off" }],
    ["/readonly ON", { kind: "agenticodingCommand", name: "readonly", args: "on" }],
    ["/handoff execution", { kind: "agenticodingCommand", name: "handoff", args: "execution" }],
    [
      "/notebook write plan first draft",
      { kind: "agenticodingCommand", name: "notebook", args: "write plan first draft" },
    ],
    ["/compact", { kind: "compact" }],
    ["/compact keep the test names", { kind: "compact", instructions: "keep the test names" }],
    ["/review parser", { kind: "template", name: "review", args: "parser", sourcePath: "/proj/.pi/prompts/review.md" }],
    [
      "/skill:lint src",
      { kind: "skill", name: "skill:lint", args: "src", sourcePath: "/proj/.pi/skills/lint/SKILL.md" },
    ],
  ])("accepts %j", (raw, expected) => {
    const result = resolveStep(raw, catalog);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.step).toMatchObject({ raw, ...expected });
  });

  it.each([
    [
      "/publish",
      "external-extension",
      "Unsupported step: /publish is an external extension command.\npi-agenticoding cannot execute third-party extension command handlers.",
    ],
    ["/settings", "interactive-builtin", "Unsupported step: /settings is an interactive-only built-in command."],
    ["/tree", "interactive-builtin", "/tree is an interactive-only built-in"],
    ["/model gpt", "interactive-builtin", "/model is an interactive-only built-in"],
    ["/new", "new", "/new cannot be a step"],
    ["/deploy now", "unresolved", "Unsupported step: /deploy is not a known command."],
    ["/", "malformed", "is not a well-formed slash command"],
    ["/src/app.ts is broken", "malformed", "is not a well-formed slash command"],
    ["/sequence", "nested-sequence", "/sequence cannot run inside a sequence"],
    ["!rm -rf build", "shell", "is a shell command"],
    ["/readonly maybe", "bad-arguments", "Write /readonly (toggles), /readonly on or /readonly off."],
    ["   ", "empty", "the step is empty"],
  ])("rejects %j as %s", (raw, reason, message) => {
    const result = resolveStep(raw, catalog);
    expect(result).toMatchObject({ ok: false, reason });
    if (!result.ok) expect(result.message).toContain(message);
  });

  it("uses sourceInfo, not the name: a third-party /readonly is an external command", () => {
    const foreign = createCommandCatalog([
      ...cairnCommands(OWN).filter((c) => c.name !== "readonly"),
      command("readonly", "extension", "/elsewhere/readonly-ext.ts"),
    ]);
    expect(resolveStep("/readonly", foreign)).toMatchObject({ ok: false, reason: "external-extension" });
  });

  it("follows pi's precedence: an extension command shadows a template of the same name", () => {
    const shadowed = createCommandCatalog([
      ...cairnCommands(OWN),
      command("review", "extension", "/elsewhere/review.ts"),
      command("review", "prompt", "/proj/.pi/prompts/review.md"),
    ]);
    expect(resolveStep("/review x", shadowed)).toMatchObject({ ok: false, reason: "external-extension" });
  });

  it("rejects a cairn command that cannot work in this build, with the reason", () => {
    const limited = createCommandCatalog(commands, new Map([["handoff", "No resume engine."]]));
    const result = resolveStep("/handoff next", limited);
    expect(result).toMatchObject({ ok: false, reason: "unavailable" });
    if (!result.ok) expect(result.message).toBe("Unsupported step: /handoff is unavailable.\nNo resume engine.");
  });

  it("keeps multi-line text and trims only the outside", () => {
    const result = resolveStep("  /notebook write plan line one\nline two  ", catalog);
    expect(result).toMatchObject({
      ok: true,
      step: { kind: "agenticodingCommand", args: "write plan line one\nline two" },
    });
  });
});

describe("findOwnSourcePath", () => {
  it("finds the extension that registered all of cairn's commands", () => {
    expect(findOwnSourcePath(commands)).toBe(OWN);
  });

  it("ignores pi's :N suffixes for duplicated names", () => {
    const renamed = cairnCommands(OWN).map((c) => (c.name === "notebook" ? { ...c, name: "notebook:2" } : c));
    expect(findOwnSourcePath([command("notebook:1", "extension", "/other.ts"), ...renamed])).toBe(OWN);
  });

  it("is undefined when no single extension registered them all", () => {
    expect(findOwnSourcePath([command("readonly", "extension", OWN), command("sequence", "extension", "/x.ts")])).toBe(
      undefined,
    );
  });
});

describe("resolveSequence", () => {
  it("resolves every step or reports every failure with its index", () => {
    expect(resolveSequence(["/readonly", "Plan it", "/review a"], catalog)).toMatchObject({
      ok: true,
      steps: [{ kind: "agenticodingCommand" }, { kind: "prompt" }, { kind: "template" }],
    });
    expect(resolveSequence(["/readonly", "/publish", "ok", "/new"], catalog)).toMatchObject({
      ok: false,
      failures: [
        { index: 1, reason: "external-extension" },
        { index: 3, reason: "new" },
      ],
    });
  });

  it("re-resolution sees changed metadata: a template that became an extension command no longer runs", () => {
    const before = resolveSequence(["/review a"], catalog);
    const after = resolveSequence(
      ["/review a"],
      createCommandCatalog([...cairnCommands(OWN), command("review", "extension", "/elsewhere/review.ts")]),
    );
    expect(before.ok).toBe(true);
    expect(after).toMatchObject({ ok: false, failures: [{ reason: "external-extension" }] });
  });
});

describe("parseSlash", () => {
  it.each([
    ["/x", { name: "x", args: "" }],
    ["/x  a  b ", { name: "x", args: "a  b" }],
    ["/skill:lint", { name: "skill:lint", args: "" }],
    ["/ x", undefined],
    ["//x", undefined],
  ])("%j", (text, expected) => {
    expect(parseSlash(text)).toEqual(expected);
  });
});

describe("a step is kept as typed", () => {
  it.each(["/readonly", "/readonly off", "/notebook write a b", "Plan it"])("%j resolves with raw %j", (raw) => {
    const result = resolveStep(raw, catalog);
    if (!result.ok) throw new Error(result.message);
    expect(result.step.raw).toBe(raw);
  });
});
