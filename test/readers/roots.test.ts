/** Each agent's default folder, and the environment variable that moves it. */
import { describe, expect, it } from "vitest";
import { defaultRoots, isTranscriptFile } from "../../src/readers/roots.ts";

const dirsOf = (env: Record<string, string>, provider: string) =>
  defaultRoots(env, "/home/u")
    .filter((r) => r.provider === provider)
    .map((r) => r.dir);

describe("default roots of the newer agents", () => {
  it("Gemini CLI: ~/.gemini/tmp, or under $GEMINI_CLI_HOME", () => {
    expect(dirsOf({}, "gemini")).toEqual(["/home/u/.gemini/tmp"]);
    expect(dirsOf({ GEMINI_CLI_HOME: "/g" }, "gemini")).toEqual(["/g/.gemini/tmp"]);
  });
  it("a Gemini chat document is a transcript file, its settings are not", () => {
    expect(isTranscriptFile("session-2026-01-01T10-00-1a2b3c4d.json")).toBe(true);
    expect(isTranscriptFile("settings.json")).toBe(false);
  });
  it("OpenClaw: ~/.openclaw/agents, under $OPENCLAW_HOME, or in $OPENCLAW_STATE_DIR", () => {
    expect(dirsOf({}, "openclaw")).toEqual(["/home/u/.openclaw/agents"]);
    expect(dirsOf({ OPENCLAW_HOME: "/o" }, "openclaw")).toEqual(["/o/.openclaw/agents"]);
    expect(dirsOf({ OPENCLAW_STATE_DIR: "/s", OPENCLAW_HOME: "/o" }, "openclaw")).toEqual(["/s/agents"]);
  });
  it("an OpenClaw agent's database is a transcript file, its other files are not", () => {
    expect(isTranscriptFile("openclaw-agent.sqlite")).toBe(true);
    expect(isTranscriptFile("openclaw.sqlite")).toBe(false);
    expect(isTranscriptFile("sessions.json")).toBe(false);
  });
  it("Nanocoder: its data folder's sessions, moved by $NANOCODER_DATA_DIR or $XDG_DATA_HOME", () => {
    expect(dirsOf({}, "nanocoder")).toEqual([
      "/home/u/.local/share/nanocoder/sessions",
      "/home/u/Library/Application Support/nanocoder/sessions",
    ]);
    expect(dirsOf({ XDG_DATA_HOME: "/x" }, "nanocoder")).toEqual(["/x/nanocoder/sessions"]);
    expect(dirsOf({ NANOCODER_DATA_DIR: "/n", XDG_DATA_HOME: "/x" }, "nanocoder")).toEqual(["/n/sessions"]);
  });
  it("a Nanocoder session is a transcript file, its index is not", () => {
    expect(isTranscriptFile("098383e5-2124-4244-b630-f32168b43895.json")).toBe(true);
    expect(isTranscriptFile("sessions.json")).toBe(false);
  });
});
