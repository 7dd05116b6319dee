import { DEFAULT_HOOK_BUDGET, HOOK_PROVIDERS, type HookAgent, hookAgents, MIN_HOOK_BUDGET } from "../../app/hooks.ts";
import { parseFlags } from "../args.ts";
import { type Command, UsageError, writeJson } from "../io.ts";

const USAGE = `Usage: cairn hooks install <agent>... | --all [--budget N] [--opt-in | --everywhere]
       cairn hooks remove [<agent>... | --all]
       cairn hooks status [--json]
       cairn hooks off [DIR] | on [DIR]

Registers cairn in the session-start hooks of the agents you run, so that a new session in a folder with history
begins with a short cited brief of the latest earlier work there (by any agent), within a token budget (default
${DEFAULT_HOOK_BUDGET}), secrets redacted. It asks no model. Nothing is added when the folder has no history, when the
session resumes or compacts one the agent already carries, in a folder turned off, or when CAIRN_HOOKS=off.
A hook never stands in the agent's way: its own errors are recorded and shown by 'cairn hooks status'.

  install     add cairn's hook to each agent's settings (idempotent; your other settings are kept as they are);
              --all: every agent set up here (its folder, such as ~/.gemini, exists)
  remove      take it out (the settings file is given back byte for byte if it was not changed since)
  status      where each hook is, whether it is installed, how often it ran, its last outcome and error
  off, on     turn the brief off (or back on) for DIR (default: here) and the folders below it; a file named
              .cairn-hooks-off in a project does the same for everyone who clones it
  run, index  what an agent runs at a session's start (the brief) and end (indexing it in the background)
  --budget    the brief's size in tokens, 500 to 20000 (install sets it for every agent)
  --opt-in    briefs only in folders turned on ('cairn hooks on DIR', or a .cairn-hooks-on file in the project);
              --everywhere goes back to the default, briefs everywhere but where turned off

Agents with a hook cairn can register in: ${HOOK_PROVIDERS.join(", ")}. The others are listed in docs/hooks.md with what cairn offers there.`;

export const hooksCommand: Command = {
  name: "hooks",
  summary: "add a cited brief of earlier work to every new agent session (session-start hooks)",
  usage: USAGE,
  async run(argv, io) {
    const { values, positionals } = parseFlags(
      argv,
      {
        all: { type: "boolean" },
        budget: { type: "string" },
        json: { type: "boolean" },
        "opt-in": { type: "boolean" },
        everywhere: { type: "boolean" },
      },
      true,
    );
    const [verb, ...rest] = positionals;
    switch (verb) {
      case "run": {
        // The agent's stdin; the hook's own failures never reach the agent (recorded, exit 0).
        const { runHook } = await import("../../hooks/run.ts");
        await runHook(rest[0] ?? "", { env: io.env, stdin: await readStdin(), stdout: io.stdout });
        return 0;
      }
      case "index": {
        // At a session's end: the transcript is indexed by a process of its own; this one returns at once.
        const { runEndHook } = await import("../../hooks/end.ts");
        await runEndHook(rest[0] ?? "", {
          env: io.env,
          stdin: await readStdin(),
          stdout: io.stdout,
          cli: process.argv[1] ?? "",
        });
        return 0;
      }
      case "install": {
        const budget = values.budget === undefined ? undefined : Number(values.budget);
        if (budget !== undefined && !(Number.isInteger(budget) && budget >= MIN_HOOK_BUDGET && budget <= 20_000))
          throw new UsageError(
            `--budget is a whole number of tokens from ${MIN_HOOK_BUDGET} to 20000, not '${values.budget}'`,
          );
        if (values["opt-in"] && values.everywhere) throw new UsageError("give --opt-in or --everywhere, not both");
        const named = await chosen(rest, values.all === true, true);
        const { agentFolder, freshBundle, install, setBudget, setOptInOnly } = await import("../../hooks/manage.ts");
        // --all means the agents set up here: a folder of settings is made only for an agent named.
        const absent = values.all === true ? named.filter((a) => agentFolder(io.env, a.hook)?.exists === false) : [];
        for (const a of absent)
          io.stdout.write(
            `${a.provider}: skipped, no ${agentFolder(io.env, a.hook)?.path} here (name it to install)\n`,
          );
        const agents = named.filter((a) => !absent.includes(a));
        if (budget !== undefined) setBudget(io.env, budget);
        if (values["opt-in"] || values.everywhere) setOptInOnly(io.env, values["opt-in"] === true);
        const outcomes = install(io.env, agents);
        for (const r of outcomes)
          if (r.did === "failed") io.stderr.write(`cairn hooks: ${r.agent}: cannot install in ${r.path}: ${r.why}\n`);
          else io.stdout.write(`${r.agent}: ${r.did} in ${r.path}\n`);
        if (!freshBundle())
          io.stderr.write(
            "note: this checkout's built command is missing or older than its sources, so the hooks run the sources,\n" +
              "which costs each session's start most of a second: run 'npm run build', then install again.\n",
          );
        return outcomes.some((r) => r.did === "failed") ? 1 : 0;
      }
      case "remove": {
        const agents = await chosen(rest, values.all === true || rest.length === 0, false);
        const { remove } = await import("../../hooks/manage.ts");
        const outcomes = remove(io.env, agents);
        for (const r of outcomes)
          if (r.did === "failed")
            io.stderr.write(
              `cairn hooks: ${r.agent}: ${r.path} is not readable settings now; take cairn's entry out by hand\n`,
            );
          else io.stdout.write(`${r.agent}: ${r.did}${r.did === "not installed" ? "" : ` (${r.path})`}\n`);
        return outcomes.some((r) => r.did === "failed") ? 1 : 0;
      }
      case "status":
        return printStatus(io, values.json === true);
      case "off":
      case "on": {
        const dir = rest[0] ?? io.cwd;
        const { optOut } = await import("../../hooks/manage.ts");
        optOut(io.env, dir, verb === "off");
        io.stdout.write(`cairn hooks: ${verb === "off" ? "no brief" : "briefs"} in ${dir} and below\n`);
        return 0;
      }
      default:
        throw new UsageError(
          verb === undefined ? "say what to do: install, remove, status, off or on" : `unknown hooks action '${verb}'`,
        );
    }
  },
};

async function chosen(names: readonly string[], all: boolean, required: boolean): Promise<HookAgent[]> {
  const agents = await hookAgents();
  if (all) return agents;
  if (names.length === 0 && required) throw new UsageError("name the agents (e.g. 'claude'), or give --all");
  return names.map((name) => {
    const agent = agents.find((a) => a.provider === name);
    if (!agent)
      throw new UsageError(
        `cairn has no session-start hook for '${name}'`,
        `hooks exist for ${agents.map((a) => a.provider).join(", ")}; docs/hooks.md lists the others`,
      );
    return agent;
  });
}

async function printStatus(io: Parameters<Command["run"]>[1], json: boolean): Promise<number> {
  const { status } = await import("../../hooks/manage.ts");
  const s = await status(io.env);
  if (json) {
    writeJson(io, s);
    return 0;
  }
  for (const a of s.agents) {
    if (a.installed === "extension") io.stdout.write(`${a.name} (cairn's extension): a brief at each new session\n`);
    else {
      const where =
        a.installed === true ? "installed" : a.installed === "unreadable" ? "settings unreadable" : "not installed";
      io.stdout.write(`${a.name} (${a.agent}): ${where} · ${a.path}\n`);
    }
    const r = a.runs;
    if (!r) continue;
    io.stdout.write(`  ran ${r.count} times, ${r.briefs} with a brief\n`);
    if (r.last) io.stdout.write(`  last: ${r.last.at} · ${r.last.outcome} · ${r.last.ms} ms\n`);
    if (r.lastError) io.stdout.write(`  last error: ${r.lastError.at} · ${r.lastError.message}\n`);
    if (r.indexedAtEnd) io.stdout.write(`  sessions indexed as they ended: ${r.indexedAtEnd}\n`);
  }
  const where = s.optInOnly
    ? `briefs only where turned on: ${s.optIn.join(", ") || "nowhere yet"} (or a .cairn-hooks-on file)`
    : "briefs everywhere but where turned off";
  io.stdout.write(`budget: ${s.budget ?? DEFAULT_HOOK_BUDGET} tokens · ${where}\n`);
  io.stdout.write(`turned off in: ${s.optOut.join(", ") || "nowhere"} (and under any .cairn-hooks-off file)\n`);
  io.stdout.write(`state: ${s.state}\n`);
  return 0;
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return "";
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
