import { agentRoots, type UnchangedAnswer, unchangedIndex } from "../../app/index-app.ts";
import type { IndexResult } from "../../app/indexing.ts";
import { agentFolderLines, FOLDER_VARIABLES, wrapWords } from "../agents.ts";
import { parseFlags } from "../args.ts";
import { EXIT } from "../exit.ts";
import { plural, pluralLarge } from "../format.ts";
import { INTERRUPTED, interruptedMessage } from "../index-run.ts";
import { type CliIo, type Command, writeJson } from "../io.ts";
import { createProgress, createProgressLine } from "../progress.ts";
import { explicitRoots } from "../roots.ts";
import { createVectorProgress } from "../vectors.ts";

const USAGE = `Usage: cairn index [PATH... | --root PATH...] [--db PATH] [--watch] [--json]

Indexes transcripts into cairn's SQLite database. Without --root it reads every agent's own folders:
${agentFolderLines("  ").join("\n")}
${wrapWords(`honouring ${FOLDER_VARIABLES.join(", ")}.`, 114, "  ")}
Unchanged files cost one stat; grown files are read from where the last run stopped. Then the evidence bundles
of new events are embedded for semantic search ('cairn embed' chooses the embedder).

  --root PATH  a folder (or file) to index; repeatable; it must exist (a bare PATH means the same)
  --db PATH    the database (default $CAIRN_DB, else $XDG_DATA_HOME/cairn/cairn.db)
  --watch      keep running and index appended lines as they are written
  --json       print only a JSON summary`;

export const indexCommand: Command = {
  name: "index",
  summary: "index transcripts into the database",
  usage: USAGE,
  async run(argv, io) {
    const { values, positionals } = parseFlags(
      argv,
      {
        root: { type: "string", multiple: true },
        db: { type: "string" },
        watch: { type: "boolean" },
        json: { type: "boolean" },
      },
      true,
    );
    const given = [...(values.root ?? []), ...positionals];
    const roots = given.length > 0 ? explicitRoots(given, io.cwd) : agentRoots(io.env);
    let listed: { roots: typeof roots; files: readonly string[] } | undefined;
    if (!values.watch && !io.signal?.aborted) {
      // Nothing changed (most runs): answered from a read-only look at the index, without loading the store.
      const progress = createProgress(io, values.json === true);
      const same = unchangedIndex({
        db: values.db,
        env: io.env,
        cwd: io.cwd,
        roots,
        problems: values.json ? PROBLEM_LINES : 0,
        onProgress: (p) => progress.update(p),
        onListed: (files) => {
          listed = { roots, files };
        },
      });
      progress.done();
      if (same) return printUnchanged(io, same, values.json === true);
    }
    const { writeIndexApp } = await import("../index-app.ts");
    const app = writeIndexApp(io, values.db);
    const dbPath = app.dbPath;
    const onWait = (pid: number) => {
      if (!values.json) io.stderr.write(`cairn index: waiting for pid ${pid}, which is indexing ${dbPath}…\n`);
    };
    try {
      if (values.watch) {
        await app.watch({
          roots,
          onWait,
          ...(io.signal ? { signal: io.signal } : {}),
          onResult(r) {
            if (r.changed === 0) return;
            if (values.json) writeJson(io, summaryJson(r, dbPath));
            else io.stdout.write(`${new Date().toISOString()} ${summaryLine(r)}\n`);
          },
        });
        return io.signal?.aborted ? INTERRUPTED : 0;
      }
      const progress = createProgress(io, values.json === true);
      const vectorProgress = createVectorProgress(io, values.json === true);
      // Once per index written by an older release: its rows converted to the compact layout.
      const compactProgress = createProgressLine(io, "converting to the compact layout:", {
        quiet: values.json === true,
        suffix: " rows",
      });
      const run = await app.index({
        roots,
        ...(listed ? { listed } : {}),
        onWait,
        onProgress: (p) => progress.update(p),
        onCompactProgress: (p) => {
          progress.done();
          compactProgress.update(p.done, p.total);
        },
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
      const { indexed, vectors } = run;
      const result = indexed!;
      if (values.json) {
        writeJson(io, {
          ...summaryJson(result, dbPath),
          vectors: vectors === null ? null : vectors.ok ? vectors.result : { error: vectors.error },
          problem_lines: app.problems(PROBLEM_LINES),
        });
      }
      if (run.interrupted) {
        io.stderr.write(interruptedMessage("cairn index", run));
        return INTERRUPTED;
      }
      // What could not be read was not indexed: a script must not take the run for a whole one.
      const exit = result.errors.length > 0 ? EXIT.failure : EXIT.ok;
      if (values.json) return exit;
      io.stdout.write(`${summaryLine(result)}\n`);
      if (run.compacted)
        io.stdout.write(
          `  converted ${pluralLarge(run.compacted.rows, "row")} of an older index to the compact layout${run.compacted.vacuumed ? ", and rewrote the file compactly" : ""}\n`,
        );
      if (vectors && !vectors.ok) io.stderr.write(`  semantic vectors not updated: ${vectors.error}\n`);
      else if (vectors?.ok && (vectors.result.embedded > 0 || vectors.result.reset))
        io.stdout.write(
          `  embedded ${plural(vectors.result.embedded, "evidence bundle")}${vectors.result.pending ? ` (${vectors.result.pending} pending)` : ""}\n`,
        );
      for (const e of result.errors) io.stderr.write(`  cannot read ${e.path}: ${e.message}\n`);
      if (result.problems > 0)
        io.stdout.write(
          `  ${plural(result.problems, "line")} could not be used; see 'cairn index --json' or 'cairn inspect <file>'\n`,
        );
      return exit;
    } finally {
      app.close();
    }
  },
};

/** Problem lines listed by `--json`. */
const PROBLEM_LINES = 200;

/** What the full path prints for a run that found nothing to do (nothing embedded, no problems, no errors). */
function printUnchanged(io: CliIo, same: UnchangedAnswer, json: boolean): number {
  if (json)
    writeJson(io, {
      ...summaryJson(same.indexed, same.dbPath),
      vectors: same.vectors.result,
      problem_lines: same.problems,
    });
  else io.stdout.write(`${summaryLine(same.indexed)}\n`);
  return 0;
}

export function summaryLine(r: IndexResult): string {
  const mb = r.bytes / 1048576;
  const secs = r.ms / 1000;
  const gone = r.gone > 0 ? `, ${r.gone} gone from disk (kept; 'cairn prune' forgets them)` : "";
  const moved = r.moved > 0 ? `, ${r.moved} moved` : "";
  const unreadable = r.errors.length > 0 ? `, ${r.errors.length} unreadable` : "";
  return `indexed ${plural(r.files, "file")} (${r.changed} changed, ${r.unchanged} unchanged${moved}${gone}), ${plural(r.sessions, "session")}, ${r.events >= 0 ? "+" : ""}${plural(r.events, "event")}, ${plural(r.problems, "problem")}${unreadable}, ${mb.toFixed(1)} MB in ${secs.toFixed(1)} s (${(secs > 0 ? mb / secs : 0).toFixed(1)} MB/s)`;
}

function summaryJson(r: IndexResult, db: string) {
  return {
    db,
    files: r.files,
    changed: r.changed,
    unchanged: r.unchanged,
    rewritten: r.rewritten,
    sessions: r.sessions,
    events: r.events,
    gone: r.gone,
    moved: r.moved,
    interrupted: r.interrupted,
    problems: r.problems,
    bytes: r.bytes,
    ms: r.ms,
    errors: r.errors,
  };
}

export type { CliIo };
