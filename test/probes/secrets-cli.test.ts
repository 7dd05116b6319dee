/**
 * Issue 34, "no 20-character piece of any secret in any output": the planted-secrets transcripts (Claude Code,
 * Codex and pi, written by their own CLIs) through every `cairn` command that prints history, in text and in
 * --json, and `--reveal-secrets`, the one way a person at a terminal sees a value. Each test gathers every leak of
 * its command family, so a failure lists them all (command, secret, the text around it).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fingerprint } from "../../src/secrets/detect.ts";
import { echoEvidence, type FakeModel, startFakeModel } from "../helpers/fake-openai.ts";
import {
  buildIndex,
  type IndexedEvent,
  type IndexedSession,
  indexed,
  type ProbeIndex,
  type Ran,
  run,
} from "./helpers/index.ts";
import { LeakReport, leaks, plantedSecrets, secret, writePlantedHome } from "./helpers/planted.ts";
import { SECRET_QUERIES } from "./helpers/queries.ts";

let index: ProbeIndex;
let events: IndexedEvent[];
let sessions: IndexedSession[];
/** The events `cairn secrets` says hold a secret. */
let holding: Set<string>;

beforeAll(async () => {
  index = buildIndex("cairn-probe-secrets-cli-", writePlantedHome);
  ({ events, sessions } = indexed(index.db));
  const list = await run(index, ["secrets", "--json"]);
  holding = new Set(
    (JSON.parse(list.stdout) as { findings: Array<{ event_id: string }> }).findings.map((f) => f.event_id),
  );
}, 120_000);
afterAll(() => index?.remove());

/** Runs each command, and lists every planted secret its stdout or stderr carries, as `command → secret: text`. */
async function leaksOf(
  commands: string[][],
  ok: (args: string[], r: Ran) => void = okRun,
  report = new LeakReport(),
): Promise<string[]> {
  for (const args of commands) {
    const r = await run(index, args);
    ok(args, r);
    report.add(`cairn ${args.join(" ")}`, `${r.stdout}\n${r.stderr}`);
  }
  return report.lines();
}

function okRun(args: string[], r: Ran): void {
  expect(r.code, `cairn ${args.join(" ")}: ${r.stderr}`).toBe(0);
  expect(r.stdout.length, `cairn ${args.join(" ")} printed nothing`).toBeGreaterThan(0);
}

const both = (args: string[]) => [args, [...args, "--json"]];

describe("the planted transcripts are what the probes need", () => {
  it("hold every planted secret, in three agents' sessions, and cairn finds a secret in each", async () => {
    expect(new Set(sessions.map((s) => s.provider))).toEqual(new Set(["claude", "codex", "pi"]));
    const reveal = (id: string) => run(index, ["export", id, "--format", "json", "--reveal-secrets"], {}, true);
    const raw = await reveal(sessions[0]!.session_id);
    expect(raw.code, raw.stderr).toBe(0);
    const all = await Promise.all(sessions.map((s) => reveal(s.session_id)));
    const texts = all.map((r) => r.stdout).join("\n");
    for (const s of plantedSecrets())
      expect(
        leaks(texts).map((l) => l.secret),
        s.name,
      ).toContain(s.name);
    for (const s of sessions)
      expect(
        [...holding].some((id) => events.find((e) => e.event_id === id)?.session_id === s.session_id),
        s.session_id,
      ).toBe(true);
  });
});

describe("cairn finds every secret the issue names", () => {
  it("each planted secret, in each agent's session, by its fingerprint", async () => {
    const r = await run(index, ["secrets", "--json"]);
    const findings = (JSON.parse(r.stdout) as { findings: Array<{ session_id: string; fingerprint: string }> })
      .findings;
    const missing: string[] = [];
    for (const s of sessions)
      for (const planted of plantedSecrets())
        if (!findings.some((f) => f.session_id === s.session_id && f.fingerprint === fingerprint(planted.value)))
          missing.push(`${s.provider}: ${planted.label}`);
    expect(missing).toEqual([]);
  });
});

describe("no command prints a planted secret", () => {
  it("overview and sessions", async () => {
    const found = await leaksOf([
      ...both(["overview", "--root", join(index.home)]),
      ...both(["sessions", "--all"]),
      ...both(["sessions"]),
    ]);
    expect(found).toEqual([]);
  });

  it("search: queries that find each secret's event, kind:secret, and the secrets' own prefixes", async () => {
    const commands = SECRET_QUERIES.flatMap((q) => [
      ["search", q, "--limit", "50"],
      ["search", q, "--limit", "50", "--json"],
      ["search", q, "--limit", "50", "--mode", "lexical"],
    ]);
    // A query may rightly find nothing (exit 1); the probe needs most of them to find the secrets' events.
    let hits = 0;
    const found = await leaksOf(commands, (_args, r) => {
      if (r.code === 0) hits++;
    });
    expect(hits).toBeGreaterThan(commands.length / 2);
    expect(found).toEqual([]);
  });

  it("timeline of every session, with --all, and the rows around every secret event", async () => {
    const commands = sessions.flatMap((s) => [
      ...both(["timeline", s.session_id]),
      ...both(["timeline", s.session_id, "--all"]),
    ]);
    for (const id of holding) commands.push(["timeline", "--around", id, "--all"]);
    expect(await leaksOf(commands)).toEqual([]);
  });

  it("show of every event in the index, text and --json", async () => {
    const found = await leaksOf(events.flatMap((e) => both(["show", e.event_id])));
    expect(found).toEqual([]);
  });

  it("show keeps a secret's place with a marker, so the probe above is not passed by printing nothing", async () => {
    for (const id of holding) {
      const r = await run(index, ["show", id]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout, id).toContain("[secret:");
    }
  });

  it("show --source (the transcript line as the agent wrote it) of every secret event", async () => {
    const found = await leaksOf([...holding].map((id) => ["show", id, "--source"]));
    expect(found).toEqual([]);
  });

  it("resume: --latest, each session (md and json), and --print-command for each agent", async () => {
    const commands: string[][] = [...both(["resume", "--latest"])];
    for (const s of sessions) {
      commands.push(...both(["resume", s.session_id]), ["resume", s.session_id, "--format", "md"]);
      for (const agent of ["claude", "codex", "pi"]) commands.push(["resume", s.session_id, "--print-command", agent]);
    }
    expect(await leaksOf(commands)).toEqual([]);
  });

  it("ask --dry-run: the pack that would be sent", async () => {
    const questions = [
      "which AWS keys did I paste and what is in .env",
      "what is the database password and the deploy key",
      "which GitHub token and Stripe key does the deploy use",
    ];
    const found = await leaksOf(questions.flatMap((q) => both(["ask", q, "--dry-run"])));
    expect(found).toEqual([]);
  });

  describe("ask with a model", () => {
    let fake: FakeModel;
    beforeAll(async () => {
      fake = await startFakeModel();
      fake.reply = echoEvidence;
    });
    afterAll(() => fake?.close());

    it("neither the prompt sent nor the answer, its check and the cited events hold a secret", async () => {
      const model = ["--url", fake.url, "--model", "fake"];
      const questions = ["which AWS keys did I paste and what is in .env", "what is in the deploy credentials file"];
      const report = new LeakReport();
      await leaksOf(
        questions.flatMap((q) => both(["ask", q, ...model])),
        (args, r) => expect(r.code, `cairn ${args.join(" ")}: ${r.stderr}`).toBe(0),
        report,
      );
      for (const ex of fake.seen) report.add("the prompt sent to the model", `${ex.system}\n${ex.user}`);
      expect(fake.seen.length).toBeGreaterThan(0);
      expect(report.lines()).toEqual([]);
    });
  });

  it("export: md, html and json, to stdout and with -o", async () => {
    const commands: string[][] = [];
    for (const s of sessions)
      for (const format of ["md", "html", "json"]) commands.push(["export", s.session_id, "--format", format]);
    const report = new LeakReport();
    await leaksOf(commands, okRun, report);
    for (const s of sessions)
      for (const format of ["md", "html", "json"]) {
        const file = join(index.dir, `export-${s.session_id.slice(0, 8)}.${format}`);
        const r = await run(index, ["export", s.session_id, "--format", format, "-o", file]);
        expect(r.code, r.stderr).toBe(0);
        report.add(`cairn export ${s.session_id} --format ${format} -o FILE (the file)`, readFileSync(file, "utf8"));
      }
    expect(report.lines()).toEqual([]);
  });

  it("threads, checkpoints and secrets", async () => {
    const commands = [
      ...both(["threads", "--all"]),
      ...both(["secrets"]),
      ...sessions.flatMap((s) => both(["secrets", "--session", s.session_id])),
    ];
    const report = new LeakReport();
    await leaksOf(commands, okRun, report);
    // A session without checkpoints says so: still an exit that must not leak.
    await leaksOf(
      sessions.flatMap((s) => both(["checkpoints", s.session_id])),
      () => {},
      report,
    );
    expect(report.lines()).toEqual([]);
  });

  it("inspect (what cairn makes of a transcript file: an exit like any other)", async () => {
    const sources = [...new Set(sessions.map((s) => s.source_file))];
    expect(sources.length).toBeGreaterThanOrEqual(3);
    const found = await leaksOf(sources.flatMap((f) => [...both(["inspect", f]), ["inspect", f, "--events"]]));
    expect(found).toEqual([]);
  });
});

describe("--reveal-secrets", () => {
  it("shows a person the value that every other output replaces", async () => {
    const prompt = [...holding].find((id) => events.find((e) => e.event_id === id)?.event_type === "user_message")!;
    const r = await run(index, ["show", prompt, "--reveal-secrets"], {}, true);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(secret("aws-key-id").value);
    // a program (no terminal on either end) asking the same gets a usage error, and no value
    const program = await run(index, ["show", prompt, "--reveal-secrets"]);
    expect(program.code).toBe(2);
    expect(program.stdout).not.toContain(secret("aws-key-id").value);
  });
});
