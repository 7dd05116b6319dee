import { resolve } from "node:path";
import { EXPORT_FORMATS, type ExportFormat } from "../../app/export/document.ts";
import { renderExport } from "../../app/export/render.ts";
import { REVEAL_FLAG, REVEAL_USAGE, readCairn } from "../app.ts";
import { parseFlags } from "../args.ts";
import { type Command, UsageError } from "../io.ts";
import { writeOutput } from "../write-output.ts";

const USAGE = `Usage: cairn export <session|thread> [--format md|html|json] [--output FILE] [--reveal-secrets] [--db PATH]

Writes a session, or every session of a work thread merged by time, as one document to share:
  --format md     Markdown (the default): messages as written, each tool call and its result folded in
                  <details>, errors, checks and decisions marked, every block citing its event [e:ID]
  --format html   one self-contained HTML file: no script, no request of its own, every text escaped
  --format json   the sessions and their events whole
  --output FILE   write to FILE instead of standard output
${REVEAL_USAGE}
The id is a session id or prefix, or else a thread id or prefix ('cairn threads').`;

export const exportCommand: Command = {
  name: "export",
  summary: "write a session or a thread as a Markdown, HTML or JSON document to share",
  usage: USAGE,
  async run(argv, io) {
    const { values, positionals } = parseFlags(
      argv,
      {
        format: { type: "string", short: "f" },
        output: { type: "string", short: "o" },
        json: { type: "boolean" },
        ...REVEAL_FLAG,
        db: { type: "string" },
      },
      true,
    );
    const id = positionals[0];
    if (!id) throw new UsageError("give a session or thread id (or a unique prefix of one)");
    if (positionals.length > 1) throw new UsageError(`one session or thread at a time (got ${positionals.join(", ")})`);
    const format = (values.json ? "json" : (values.format ?? "md")) as ExportFormat;
    if (!EXPORT_FORMATS.includes(format))
      throw new UsageError(`--format is ${EXPORT_FORMATS.join(", ")}, not '${values.format}'`);
    const app = readCairn(io, values.db, { json: format !== "md", reveal: values["reveal-secrets"] === true });
    let text: string;
    try {
      text = renderExport(await app.exportDocument(id), format);
    } finally {
      app.close();
    }
    if (values.output === undefined) io.stdout.write(text);
    else {
      const path = resolve(io.cwd, values.output);
      writeOutput(path, text);
      io.stderr.write(`cairn export: wrote ${path}\n`);
    }
    return 0;
  },
};
