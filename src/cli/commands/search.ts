import { parseArgs } from "node:util";
import { configuredEmbedder } from "../../embedders/config.ts";
import { type HybridHit, type HybridResult, SEARCH_MODES, type SearchMode, searchHybrid } from "../../search/hybrid.ts";
import { QueryError } from "../../search/query.ts";
import { openIndexForReading } from "../db.ts";
import { dim, highlight, red, shortTime } from "../format.ts";
import { type CliIo, type Command, UsageError, writeJson } from "../io.ts";

const USAGE = `Usage: cairn search "<query>" [--limit N] [--mode hybrid|lexical|vector] [--json] [--db PATH]

Free text (words, "phrases", OR, -word) plus prefixes and filters, combinable:
  decision:TEXT  error:TEXT  test:TEXT|fail|pass  tool:NAME  resume:TEXT  file:PATH  cmd:COMMAND
  provider:claude|codex|pi  project:NAME  session:ID-PREFIX  since:DATE|7d  until:DATE  kind:KIND
Ranked by words (BM25) and, where evidence bundles are embedded, by meaning, fused by reciprocal rank; each hit
says which matched. --mode lexical uses words only, --mode vector meaning only.
Examples:
  cairn search "error: TS2304"          cairn search "test:fail project:api since:7d"
  cairn search "file:src/auth.ts"       cairn search "decision: sqlite provider:codex"`;

export const searchCommand: Command = {
  name: "search",
  summary: "search transcripts: errors, tests, decisions, files, commands",
  usage: USAGE,
  async run(argv, io) {
    const { values, positionals } = parse(argv);
    const query = positionals.join(" ").trim();
    if (query === "") throw new UsageError("give a query");
    const limit = values.limit === undefined ? 20 : Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 10_000)
      throw new UsageError(`--limit must be a whole number from 1 to 10000, not '${values.limit}'`);
    const mode = (values.mode ?? "hybrid") as SearchMode;
    if (!SEARCH_MODES.includes(mode))
      throw new UsageError(`--mode must be one of ${SEARCH_MODES.join(", ")}, not '${values.mode}'`);
    const store = openIndexForReading(values.db, io);
    try {
      let result: HybridResult;
      try {
        const { embedder } = mode === "lexical" ? { embedder: null } : configuredEmbedder(store, io.env, io.cwd);
        result = await searchHybrid(store, query, { limit, mode, embedder });
      } catch (error) {
        if (error instanceof QueryError) throw new UsageError(`bad query: ${error.message}`, { showUsage: false });
        throw error;
      }
      if (values.json) {
        writeJson(io, result);
        return 0;
      }
      if (result.notice && mode !== "lexical") io.stderr.write(`${dim(io, `note: ${result.notice}`)}\n`);
      if (result.hits.length === 0) {
        io.stdout.write(`no matches for ${JSON.stringify(query)}\n`);
        return 0;
      }
      for (const hit of result.hits) printHit(io, hit);
      return 0;
    } finally {
      store.close();
    }
  },
};

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        limit: { type: "string", short: "n" },
        mode: { type: "string" },
        json: { type: "boolean" },
        db: { type: "string" },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

function printHit(io: CliIo, hit: HybridHit): void {
  const head = `${shortTime(hit.timestamp)}  ${hit.provider.padEnd(6)} ${(hit.project ?? "").padEnd(16)} ${hit.event_type}${hit.status ? ` (${hit.status})` : ""}`;
  const gone = hit.source_gone ? `  ${red(io, "source gone")}` : "";
  io.stdout.write(`${head}  ${dim(io, `${hit.event_id}  session ${hit.session_id.slice(0, 8)}`)}${gone}\n`);
  io.stdout.write(`  ${highlight(io, hit.snippet)}\n`);
  if (hit.evidence.length > 0) {
    const chain = hit.evidence
      .map((l) => `${l.event_type} ${l.event_id}${l.text ? ` "${l.text.slice(0, 60)}"` : ""}`)
      .join(" ← ");
    io.stdout.write(`  ${dim(io, `← ${chain}`)}\n`);
  }
  io.stdout.write(`  ${dim(io, `matched by ${hit.why}`)}\n\n`);
}
