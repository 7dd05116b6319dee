import type { Shaped } from "../../app/cairn.ts";
import type { DoctorAnswer } from "../../app/catalog/doctor.ts";
import { readCairn } from "../app.ts";
import { parseFlags } from "../args.ts";
import { bold, dim, green, plural, providerCell, red } from "../format.ts";
import { type CliIo, type Command, writeJson } from "../io.ts";

const USAGE = `Usage: cairn doctor [--json] [--db PATH]

Checks, for every agent cairn reads, that its transcripts still reach the index: the folders it is read from, the
transcript files there, the sessions indexed from them and the versions they name, record types cairn does not
know (an agent update that changed its format; with a count and the first file:line), files that cannot be read,
a folder that exists but yields no sessions (a store the agent moved or a layout it changed), and files new or
changed since the last index. Exits 1 when something is wrong, 0 when all is well.`;

export const doctorCommand: Command = {
  name: "doctor",
  summary: "check that every agent's transcripts still reach the index (moved stores, new formats, unreadable files)",
  usage: USAGE,
  async run(argv, io) {
    const { values } = parseFlags(argv, { json: { type: "boolean" }, db: { type: "string" } });
    const app = readCairn(io, values.db, { json: values.json === true });
    try {
      const answer = app.doctor();
      if (values.json) writeJson(io, answer);
      else print(io, answer);
      return answer.ok ? 0 : 1;
    } finally {
      app.close();
    }
  },
};

function print(io: CliIo, answer: Shaped<DoctorAnswer>): void {
  const out = (s: string) => io.stdout.write(`${s}\n`);
  const absent = answer.agents.filter((a) => a.findings.length === 0 && a.sessions === 0 && a.files === 0);
  for (const a of answer.agents) {
    if (absent.includes(a)) continue;
    const versions = a.versions.length > 0 ? ` · ${a.versions.slice(0, 3).join(", ")}` : "";
    const state = a.findings.length === 0 ? green(io, "ok") : red(io, `${a.findings.length} to look at`);
    out(
      `${providerCell(a.provider)}  ${bold(io, a.name)}: ${plural(a.sessions, "session")} from ${plural(a.files, "file")}${versions}  ${state}`,
    );
    for (const f of a.folders) if (f.exists) out(dim(io, `  ${f.dir}`));
    for (const finding of a.findings) out(`  ${red(io, "!")} ${finding}`);
  }
  if (absent.length > 0) out(dim(io, `no folders here for ${absent.map((a) => a.name).join(", ")}`));
  const wrong = answer.agents.filter((a) => a.findings.length > 0);
  out(
    wrong.length === 0
      ? green(io, "cairn doctor: every agent's transcripts reach the index")
      : red(
          io,
          `cairn doctor: ${wrong.length} agent${wrong.length === 1 ? "" : "s"} to look at (${wrong.map((a) => a.provider).join(", ")})`,
        ),
  );
}
