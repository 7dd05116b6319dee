import { resolve } from "node:path";
import type { Shaped } from "../../app/cairn.ts";
import type { DoctorAnswer } from "../../app/catalog/doctor.ts";
import type { OverviewAnswer } from "../../app/catalog/overview.ts";
import type { IndexResult } from "../../app/indexing.ts";
import { AGENT_NAMES, FOLDER_VARIABLES, wrapWords } from "../agents.ts";
import { writeCairn } from "../app.ts";
import { parseFlags } from "../args.ts";
import { bold, dim, noun, oneLine, plural, pluralLarge, providerCell, red, shortTime } from "../format.ts";
import { INTERRUPTED, interruptedMessage } from "../index-run.ts";
import { type CliIo, type Command, writeJson } from "../io.ts";
import { createProgress, createProgressLine } from "../progress.ts";
import { explicitRoots } from "../roots.ts";
import { createVectorProgress } from "../vectors.ts";

const USAGE = `Usage: cairn [--root DIR]... [--db PATH] [--json]

${wrapWords(`Indexes the transcripts of every agent cairn reads (${AGENT_NAMES}; or the folders given with --root) and shows what is there: sessions per agent and project, the latest sessions and what is still failing in them, and what to run next. In a terminal (stdin and stdout a TTY, no --json) it then opens the terminal UI ('cairn tui') instead of printing. Run 'cairn help' for every command, 'cairn index --help' for the folders read.`, 116)}`;

export const overviewCommand: Command = {
  name: "overview",
  summary: "index the default folders and show an overview (what `cairn` alone runs)",
  usage: USAGE,
  async run(argv, io) {
    const { values } = parseFlags(argv, {
      root: { type: "string", multiple: true },
      db: { type: "string" },
      json: { type: "boolean" },
    });
    const app = writeCairn(io, values.db, { json: values.json === true });
    let browse = false;
    try {
      const roots = values.root && values.root.length > 0 ? explicitRoots(values.root, io.cwd) : app.defaultRoots();
      const progress = createProgress(io, values.json === true);
      const vectorProgress = createVectorProgress(io, values.json === true);
      // Once per index written by an older release: its rows converted to the compact layout.
      const compactProgress = createProgressLine(io, "converting to the compact layout:", {
        quiet: values.json === true,
        suffix: " rows",
      });
      // A watcher holding the lock keeps the index current: then show what it has.
      const run = await app.index({
        roots,
        lock: "try",
        onProgress: (p) => progress.update(p),
        onCompactProgress: (p) => {
          progress.done();
          compactProgress.update(p.done, p.total);
        },
        // Meaning for search, built here too so that a first `cairn` leaves everything ready.
        onVectorProgress: (p) => {
          progress.done();
          compactProgress.done();
          vectorProgress.update(p);
        },
        ...(io.signal ? { signal: io.signal } : {}),
      });
      progress.done();
      compactProgress.done();
      vectorProgress.done();
      if (run.interrupted) {
        io.stderr.write(interruptedMessage("cairn", run));
        return INTERRUPTED;
      }
      if (run.vectors && !run.vectors.ok && !values.json)
        io.stderr.write(`  semantic vectors not updated: ${run.vectors.error}\n`);
      const overview = app.overview();
      const rootDirs = roots.map((r) => resolve(io.cwd, typeof r === "string" ? r : r.dir));
      if (values.json) {
        writeJson(io, {
          db: app.dbPath,
          roots: rootDirs,
          indexed: run.indexed,
          index_busy_pid: run.busy_pid,
          ...overview,
        });
        return 0;
      }
      // In a terminal, once there is something to browse, the overview is the terminal UI.
      browse = overview.sessions > 0 && interactive(io);
      if (!browse) {
        print(io, overview, run.indexed, run.busy_pid, app.dbPath, rootDirs);
        // Drift is said where people look: an agent whose transcripts stopped reaching the index.
        if (overview.sessions > 0) doctorLine(io, app.doctor());
      }
    } finally {
      app.close();
    }
    if (!browse) return 0;
    const { openTui } = await import("./tui.ts");
    return openTui(io, values.db);
  },
};

/** The sessions not listed, said beside the total so that it agrees with `cairn index`'s: " (+3 subagent)". */
function innerSessions(o: Shaped<OverviewAnswer>): string {
  return o.inner_sessions.subagent > 0 ? ` (+${o.inner_sessions.subagent} subagent)` : "";
}

/** A person at a terminal: stdin and stdout both a TTY (a pipe, a redirect or --json print the overview). */
function interactive(io: CliIo): boolean {
  return process.stdin.isTTY === true && io.stdout.isTTY === true && io.env["TERM"] !== "dumb";
}

function print(
  io: CliIo,
  o: Shaped<OverviewAnswer>,
  indexed: IndexResult | null,
  busy: number | null,
  db: string,
  roots: string[],
): void {
  const out = (s = "") => io.stdout.write(`${s}\n`);
  if (o.sessions === 0) {
    out("cairn found no transcripts yet.");
    out(`It looked in:\n${roots.map((r) => `  ${r}`).join("\n")}`);
    out("");
    out(wrapWords(`Point it at a folder of transcripts from any of ${AGENT_NAMES}:`, 116));
    out("  cairn --root ~/path/to/transcripts");
    out("  cairn index --root DIR --db PATH   (index only)");
    out(wrapWords(`Or set ${FOLDER_VARIABLES.join(", ")} if your agents keep them elsewhere.`, 116));
    return;
  }
  const fresh = indexed
    ? `, ${indexed.events >= 0 ? "+" : ""}${indexed.events} new ${noun(indexed.events, "event")}`
    : busy
      ? `; index kept current by pid ${busy}`
      : "";
  out(
    `${bold(io, "cairn")}: ${plural(o.sessions, "session")}${innerSessions(o)}, ${pluralLarge(o.events, "event")}${fresh}  ${dim(io, `(${db})`)}`,
  );
  spendLine(io, o.week_usage);
  if (indexed && indexed.errors.length > 0)
    out(
      red(
        io,
        `${plural(indexed.errors.length, "file or folder", "files or folders")} could not be read; 'cairn index' names them`,
      ),
    );
  if (indexed && indexed.problems > 0)
    out(dim(io, `${plural(indexed.problems, "transcript line")} could not be used; 'cairn index --json' lists them`));
  out();
  out(bold(io, "By agent and project"));
  for (const a of o.by_agent) {
    const shown = a.projects.slice(0, 6).map((p) => `${p.project} ${p.sessions}`);
    const more = a.projects.length > 6 ? ` · +${a.projects.length - 6} more` : "";
    out(`  ${providerCell(a.provider)}${String(a.sessions).padStart(5)}  ${shown.join(" · ")}${more}`);
  }
  out();
  out(bold(io, "Most recent"));
  for (const { session: s, open_failures } of o.recent) {
    out(
      `  ${shortTime(s.updated_at)}  ${providerCell(s.provider)} ${(s.project ?? "").padEnd(16)} ${oneLine(s.title ?? "", 50)}  ${dim(io, s.session_short)}`,
    );
    out(
      `      ${dim(io, `${plural(s.prompt_count, "prompt")}, ${plural(s.tool_count, "tool call")}, ${plural(s.error_count, "error")}${continues(s)}`)}`,
    );
    for (const f of open_failures.slice(0, 3)) {
      const tests =
        f.failing_tests.length > 0
          ? ` — failing: ${f.failing_tests.slice(0, 3).join(", ")}${f.failing_tests.length > 3 ? ", …" : ""}`
          : "";
      out(`      ${red(io, "✗")} still failing: ${f.what.slice(0, 60)}${tests}`);
    }
  }
  const latest = o.recent[0]?.session.session_short ?? "<id>";
  out();
  out(bold(io, "Next"));
  out(`  cairn timeline ${latest}                 what happened in the latest session`);
  out(`  cairn search "test:fail since:7d"        checks that failed this week`);
  out(`  cairn search "error: <words>"            where an error was seen before, with its evidence`);
  out(`  cairn resume --latest                    a cited brief to restart the latest session`);
}

/** This week's spend and its most expensive session, in one line (nothing when no agent recorded tokens). */
function spendLine(io: CliIo, w: Shaped<OverviewAnswer>["week_usage"]): void {
  if (w === null) return;
  const unpriced = w.unpriced_calls > 0 ? ` (+${plural(w.unpriced_calls, "call")} not priced)` : "";
  const top = w.top
    ? `; most: ${oneLine(w.top.title ?? w.top.provider, 40)} ${dim(io, w.top.session_short)} $${w.top.cost.toFixed(2)}`
    : "";
  io.stdout.write(
    `this week (from ${w.since}): $${w.cost.toFixed(2)}${unpriced}, ${pluralLarge(w.total, "token")}${top}  ${dim(io, "('cairn usage')")}\n`,
  );
}

/** One line when an agent's transcripts do not all reach the index; nothing when they do. */
function doctorLine(io: CliIo, d: Shaped<DoctorAnswer>): void {
  const wrong = d.agents.filter((a) => a.findings.length > 0);
  if (wrong.length === 0) return;
  const first = wrong[0]!;
  const more = wrong.length > 1 ? ` (and ${wrong.length - 1} more agent${wrong.length > 2 ? "s" : ""})` : "";
  io.stdout.write(`\n${red(io, "!")} ${first.name}: ${first.findings[0]}${more}; 'cairn doctor' says more\n`);
}

/** A main session that picks up another (after a compaction, or a fork) says which: its own counts may be nil. */
function continues(s: { kind: string; parent_session_short: string | null }): string {
  return s.kind === "main" && s.parent_session_short ? `, continues ${s.parent_session_short}` : "";
}
