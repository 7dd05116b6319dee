import type { SearchAnswer, Shaped } from "../../app/cairn.ts";
import { SEARCH_MODES, type SearchMode } from "../../search/hybrid.ts";
import { PROVIDER_CHOICES } from "../agents.ts";
import { REVEAL_FLAG, REVEAL_USAGE, readCairn } from "../app.ts";
import { parseFlags, positiveInt } from "../args.ts";
import { EXIT } from "../exit.ts";
import { dim, highlight, providerCell, red, shortTime } from "../format.ts";
import { type CliIo, type Command, UsageError, writeJson } from "../io.ts";

const USAGE = `Usage: cairn search "<query>" [--limit N] [--mode hybrid|lexical|vector] [--explain] [--json] [--reveal-secrets] [--db PATH]

Free text (words, "phrases", OR, -word) plus prefixes and filters, combinable:
  decision:TEXT  error:TEXT  test:TEXT|fail|pass  tool:NAME  resume:TEXT  file:PATH  cmd:COMMAND
  project:NAME  session:ID-PREFIX  since:DATE|7d  until:DATE  kind:KIND
  provider:${PROVIDER_CHOICES}
Ranked by words (BM25) and, where evidence bundles are embedded, by meaning, fused by reciprocal rank; each hit
says which matched (--explain: its ranks and similarity too). A hit by meaning must clear the embedder's
similarity floor. --mode lexical uses words only, --mode vector meaning only.
Exits 1 when nothing matches (as grep does), 2 for a malformed query.
Examples:
  cairn search "error: TS2304"          cairn search "test:fail project:api since:7d"
  cairn search "file:src/auth.ts"       cairn search "decision: sqlite provider:codex"
${REVEAL_USAGE}`;

export const searchCommand: Command = {
  name: "search",
  summary: "search transcripts: errors, tests, decisions, files, commands",
  usage: USAGE,
  async run(argv, io) {
    const { values, positionals } = parseFlags(
      argv,
      {
        limit: { type: "string", short: "n" },
        mode: { type: "string" },
        explain: { type: "boolean" },
        json: { type: "boolean" },
        db: { type: "string" },
        ...REVEAL_FLAG,
      },
      true,
    );
    const query = positionals.join(" ").trim();
    if (query === "") throw new UsageError("give a query");
    const limit = positiveInt("--limit", values.limit, 10_000) ?? 20;
    const mode = (values.mode ?? "hybrid") as SearchMode;
    if (!SEARCH_MODES.includes(mode))
      throw new UsageError(`--mode must be one of ${SEARCH_MODES.join(", ")}, not '${values.mode}'`);
    const app = readCairn(io, values.db, { json: values.json === true, reveal: values["reveal-secrets"] === true });
    try {
      const result = await app.search({ query, limit, mode, ...(values.explain ? { explain: true } : {}) });
      if (values.json) writeJson(io, result);
      else printResult(io, result, query, mode);
      return result.hits.length === 0 ? EXIT.noResults : EXIT.ok;
    } finally {
      app.close();
    }
  },
};

function printResult(io: CliIo, result: Shaped<SearchAnswer>, query: string, mode: SearchMode): void {
  if (result.notice && mode !== "lexical") io.stderr.write(`${dim(io, `note: ${result.notice}`)}\n`);
  // a person at a terminal is told what judged meaning; a script reads `meaning_by` from --json
  if (result.meaning_by && io.stderr.isTTY) io.stderr.write(`${dim(io, `meaning judged by ${result.meaning_by}`)}\n`);
  if (result.hits.length === 0) {
    io.stderr.write(`no matches for ${JSON.stringify(query)}\n`);
    return;
  }
  for (const hit of result.hits) {
    const head = `${shortTime(hit.timestamp)}  ${providerCell(hit.provider)} ${(hit.project ?? "").padEnd(16)} ${hit.event_type}${hit.status ? ` (${hit.status})` : ""}`;
    const gone = hit.source_gone ? `  ${red(io, "source gone")}` : "";
    io.stdout.write(`${head}  ${dim(io, `${hit.event_id}  session ${hit.session_short}`)}${gone}\n`);
    io.stdout.write(`  ${highlight(io, hit.snippet)}\n`);
    if (hit.evidence.length > 0) {
      const chain = hit.evidence
        .map((l) => `${l.event_type} ${l.event_id}${l.text ? ` "${l.text.slice(0, 60)}"` : ""}`)
        .join(" ← ");
      io.stdout.write(`  ${dim(io, `← ${chain}`)}\n`);
    }
    io.stdout.write(`  ${dim(io, `matched by ${hit.why}`)}\n\n`);
  }
}
