import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import type { AiResume } from "../../app/ai-resume.ts";
import type { BriefJson } from "../../app/brief.ts";
import { readCairn } from "../app.ts";
import { naturalInt, parseFlags } from "../args.ts";
import { AGENTS, type Agent, agentArgv, MAX_BRIEF_ARG_BYTES } from "../brief-handoff.ts";
import { type CliIo, type Command, UsageError, writeJson } from "../io.ts";
import { aiJson, aiVerdict } from "./resume-ai.ts";
import { verifyCommand } from "./resume-verify.ts";

const USAGE = `Usage: cairn resume [<session>|--latest] [--cwd DIR] [--at ID] [--step N] [--budget N|--ratio R]
                   [--strict] [--format md|json | --json] [--exec pi] [--print-command AGENT] [--db PATH]
                   [--ai [--provider P --model M | --url URL --model M]]
       cairn resume verify <resumed-session> [--actions N] [--json] [--db PATH]

Builds a cited brief to resume a session from: the ledger (goal, latest request, constraints, decisions, file
states, collapsed failures, last check, plan, step) first, then context selected under the budget. Without a
session it takes the latest main session in --cwd (default: the current directory); --latest takes the latest
anywhere unless --cwd is given. --at builds the brief as of an event, --step as of a step's checkpoint. The budget
is in tokens (o200k) or a ratio of the session's size (default 10 %, 2k–50k tokens). When the brief does not
validate, the fallback ladder runs (the smallest larger budget that validates, an earlier checkpoint, a pointer to
the transcript) and is reported; a brief over the budget asked for is named on stderr, or with --strict refused.
--exec pi starts pi in the session's folder with the brief as its first message; --print-command prints the
shell command that starts that agent with the brief. A brief over ${MAX_BRIEF_ARG_BYTES / 1000} KB reaches the agent through a file
in $XDG_CACHE_HOME/cairn/briefs (Linux refuses longer arguments). --ai has a model (chosen as for 'cairn ask')
rewrite the brief shorter; the rewrite is used only when it keeps every must-keep fact word for word and every
citation checks out, else cairn says why and uses the deterministic brief. 'resume verify' checks a session
started from a brief.`;

export const resumeCommand: Command = {
  name: "resume",
  summary: "build a cited brief to resume a session, or start an agent with it",
  usage: USAGE,
  async run(argv, io) {
    if (argv[0] === "verify") return verifyCommand.run(argv.slice(1), io);
    const { values, positionals } = parseFlags(
      argv,
      {
        latest: { type: "boolean" },
        cwd: { type: "string" },
        at: { type: "string" },
        step: { type: "string" },
        budget: { type: "string" },
        ratio: { type: "string" },
        strict: { type: "boolean" },
        format: { type: "string" },
        json: { type: "boolean" },
        exec: { type: "string" },
        "print-command": { type: "string" },
        ai: { type: "boolean" },
        provider: { type: "string" },
        model: { type: "string", short: "m" },
        url: { type: "string" },
        db: { type: "string" },
      },
      true,
    );
    if (positionals.length > 1) throw new UsageError(`one session at a time (got ${positionals.join(", ")})`);
    if (positionals[0] && values.latest) throw new UsageError("give a session or --latest, not both");
    if (values.budget !== undefined && values.ratio !== undefined)
      throw new UsageError("give --budget or --ratio, not both");
    if (values.at !== undefined && values.step !== undefined) throw new UsageError("give --at or --step, not both");
    if (values.exec !== undefined && values["print-command"] !== undefined)
      throw new UsageError("give --exec or --print-command, not both");
    const format = values.json ? "json" : (values.format ?? "md");
    if (format !== "md" && format !== "json") throw new UsageError(`--format is md or json, not '${format}'`);
    if (values.json && values.format === "md") throw new UsageError("give --json or --format md, not both");
    if (values.exec !== undefined && values.exec !== "pi")
      throw new UsageError(`--exec starts pi only (got '${values.exec}'); use --print-command for other agents`);
    const agent = values["print-command"];
    if (agent !== undefined && !(AGENTS as readonly string[]).includes(agent))
      throw new UsageError(`--print-command takes ${AGENTS.join(", ")}, not '${agent}'`);
    const budget = positiveNumber("--budget", values.budget, true);
    const ratio = positiveNumber("--ratio", values.ratio, false);
    if (ratio !== undefined && ratio > 1) throw new UsageError("--ratio is a share of the session, at most 1");
    const step = naturalInt("--step", values.step);
    if (!values.ai && (values.provider ?? values.model ?? values.url) !== undefined)
      throw new UsageError("--provider, --model and --url choose the model of --ai");
    // the model is chosen before the index is read, so that a missing one is said at once
    // The model's modules (and their settings schemas) load only for --ai: a plain brief starts without them.
    const models = values.ai ? await import("../../app/ask-model.ts") : null;
    const choice = models ? models.chooseModel(values, io.env) : null;

    const app = readCairn(io, values.db, { json: format === "json" });
    let brief: BriefJson;
    let cwd: string | null;
    let ai: AiResume | null = null;
    try {
      // A session named, the latest anywhere (--latest alone), or the latest in --cwd (default: here).
      const where = positionals[0] || (values.latest && values.cwd === undefined) ? {} : { cwd: values.cwd ?? "." };
      const req = {
        ...(positionals[0] ? { session: positionals[0] } : { session: "latest" }),
        ...where,
        ...(values.at !== undefined ? { at: values.at } : {}),
        ...(step !== undefined ? { step } : {}),
        ...(budget !== undefined ? { budget_tokens: budget } : {}),
        ...(ratio !== undefined ? { ratio } : {}),
      };
      if (models && choice) {
        const model = await models.createAnswerModel(choice, io.env);
        ai = await app.aiResume({ model, ...req, ...(io.signal ? { signal: io.signal } : {}) });
        brief = ai.brief;
      } else brief = await app.brief(req);
      cwd = app.session(brief.session_id).cwd;
    } finally {
      app.close();
    }
    const over = brief.budget_note;
    if (over && values.strict && ai?.chosen !== "ai")
      throw new Error(`${over}; --strict refuses it (give a larger --budget, or drop --strict to take it)`);
    if (over && ai?.chosen !== "ai") io.stderr.write(`cairn resume: ${over}\n`);
    if (ai) {
      io.stderr.write(`cairn resume: ${aiVerdict(ai)}\n`);
      brief = { ...brief, text: ai.text };
    }

    if (values.exec === "pi") return execPi(agentArgv("pi", brief, io.env), cwd, io);
    if (agent !== undefined) {
      io.stdout.write(`${agentCommand(agentArgv(agent as Agent, brief, io.env), cwd)}\n`);
      return 0;
    }
    if (format === "json") writeJson(io, ai ? { ...brief, ai: aiJson(ai) } : brief);
    else io.stdout.write(brief.text);
    return 0;
  },
};

/** POSIX shell single quoting: safe for any text, including newlines and quotes. */
export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The command line that starts an agent (its argv from agentArgv) in the session's folder. */
export function agentCommand(argv: readonly string[], cwd: string | null): string {
  const run = argv.map(shellQuote).join(" ");
  return cwd ? `cd ${shellQuote(cwd)} && ${run}` : run;
}

function execPi(argv: readonly string[], cwd: string | null, io: CliIo): Promise<number> {
  const dir = cwd && existsSync(cwd) ? cwd : io.cwd;
  if (cwd && dir !== cwd) io.stderr.write(`cairn resume: ${cwd} does not exist here; starting pi in ${dir}\n`);
  return new Promise((resolve, reject) => {
    const child = spawn("pi", argv.slice(1), { cwd: dir, env: io.env as NodeJS.ProcessEnv, stdio: "inherit" });
    child.on("error", (error: NodeJS.ErrnoException) =>
      reject(error.code === "ENOENT" ? new Error("pi is not on PATH; install it or use --print-command pi") : error),
    );
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

function positiveNumber(flag: string, v: string | undefined, integer: boolean): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n)))
    throw new UsageError(`${flag} takes a positive ${integer ? "whole number of tokens" : "number"}, not '${v}'`);
  return n;
}
