import { existsSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { createAskService } from "../../app/ask-service.ts";
import { createLiveController } from "../../live/controller.ts";
import { deferredDriver } from "../../live/drivers/deferred.ts";
import { createDriver } from "../../live/drivers/index.ts";
import { parseScript, type Script } from "../../live/drivers/script-format.ts";
import { errorMessage } from "../../live/errors.ts";
import { DRIVER_NAMES, type DriverName } from "../../live/protocol.ts";
import { isLoopback, startLiveServer } from "../../live/server/listen.ts";
import { findWebRoot } from "../../live/server/web-root.ts";
import { readCairn } from "../app.ts";
import { parseFlags } from "../args.ts";
import { type Command, UsageError } from "../io.ts";

const USAGE = `Usage: cairn serve [--cwd DIR] [--driver pi|scripted|claude] [--provider P --model M] [--resume ID]
                   [--script FILE] [--port N] [--host H] [--prompt-timeout S] [--db PATH]

Serves one live agent session to any number of browser tabs, and the index's history (sessions, search,
timelines, events, resume briefs, threads) on the same page.

  --cwd DIR          directory the agent works in (default: the current directory)
  --driver NAME      pi (default), scripted (replays --script), or claude (Claude Agent SDK)
  --provider P       pi's model provider, e.g. anthropic, openai, google (needs --model; default: pi's settings)
  --model M          the model id, e.g. claude-sonnet-4-5 (pi: with --provider; claude: the Claude model)
  --resume ID        continue a saved session (a pi session id or a unique prefix of one) instead of a new one
  --script FILE      a JSON script (see examples/live-*.json) or a recorded pi session file
  --port N           port to listen on (default: 0, a free port)
  --host H           address to bind (default: 127.0.0.1); anything else exposes the agent
  --prompt-timeout S deny a permission prompt nobody answered within S seconds (default: wait forever)
  --db PATH          the index the history views read (default: CAIRN_DB, then the user's data directory)`;

function parsePort(value: string | undefined): number {
  if (value === undefined) return 0;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port must be 0..65535, not '${value}'`);
  return port;
}

export const serveCommand: Command = {
  name: "serve",
  summary: "serve a live agent session to browser tabs",
  usage: USAGE,
  async run(argv, io) {
    const values: Record<string, string | undefined> = parseFlags(argv, {
      cwd: { type: "string" },
      driver: { type: "string" },
      script: { type: "string" },
      port: { type: "string" },
      host: { type: "string" },
      "prompt-timeout": { type: "string" },
      provider: { type: "string" },
      model: { type: "string" },
      resume: { type: "string" },
      db: { type: "string" },
    }).values;
    const driverName = (values["driver"] ?? "pi") as DriverName;
    if (!DRIVER_NAMES.includes(driverName)) throw new UsageError(`--driver must be one of ${DRIVER_NAMES.join(", ")}`);
    const cwd = resolve(io.cwd, values["cwd"] ?? ".");
    if (!existsSync(cwd) || !statSync(cwd).isDirectory()) throw new UsageError(`--cwd ${cwd} is not a directory`);
    const port = parsePort(values["port"]);
    const host = values["host"] ?? "127.0.0.1";
    let promptTimeoutMs: number | null = null;
    if (values["prompt-timeout"] !== undefined) {
      const seconds = Number(values["prompt-timeout"]);
      if (!(seconds > 0)) throw new UsageError("--prompt-timeout must be a positive number of seconds");
      promptTimeoutMs = Math.round(seconds * 1000);
    }

    let script: Script | undefined;
    if (driverName === "scripted") {
      const file = values["script"];
      if (!file) throw new UsageError("--driver scripted needs --script FILE");
      const path = resolve(io.cwd, file);
      if (!existsSync(path)) throw new UsageError(`--script ${path} does not exist`);
      const parsed = parseScript(readFileSync(path, "utf8"), path);
      if (!parsed.ok) throw new UsageError(parsed.error);
      script = parsed.script;
    } else if (values["script"] !== undefined) {
      throw new UsageError("--script only goes with --driver scripted");
    }

    const provider = values["provider"];
    const model = values["model"];
    if (provider !== undefined && driverName !== "pi") throw new UsageError("--provider only goes with --driver pi");
    if (driverName === "pi" && (provider === undefined) !== (model === undefined)) {
      throw new UsageError("--provider and --model go together (or leave both out to use pi's settings)");
    }
    if (model !== undefined && driverName === "scripted")
      throw new UsageError("--model does not go with --driver scripted");
    const resume = values["resume"];
    if (resume === "") throw new UsageError("--resume needs a session id");

    // The driver loads once the URL is out (pi's SDK takes seconds to import); a session opened before waits for it.
    const driver = deferredDriver(driverName, cwd, () =>
      createDriver({
        name: driverName,
        cwd,
        ...(script ? { script } : {}),
        ...(provider ? { provider } : {}),
        ...(model ? { model } : {}),
      }),
    );
    const controller = createLiveController({
      driver,
      promptTimeoutMs,
      log: (message) => io.stderr.write(`${message}\n`),
    });
    // A session asked for on the command line opens now, so a wrong id or model is reported here, not in a tab.
    if (resume !== undefined || provider !== undefined) {
      try {
        if (resume !== undefined) await controller.resumeSession({ sessionId: resume });
        else await controller.startSession();
      } catch (error) {
        await controller.dispose();
        const hint = (error as { cause?: { hint?: unknown } }).cause?.hint;
        throw new Error(`${errorMessage(error)}${typeof hint === "string" ? `\n${hint}` : ""}`);
      }
    }
    const webRoot = findWebRoot();
    if (!existsSync(join(webRoot, "index.html"))) {
      io.stderr.write(`cairn serve: the viewport page is not built (${webRoot}); run 'npm run build'\n`);
    }
    // Read-only, opened on the first history request; without an index each view says how to make one.
    const history = readCairn(io, values["db"], { json: true });
    const server = await startLiveServer({
      controller,
      history,
      ask: createAskService(history, io.env),
      webRoot,
      host,
      port,
      log: (message) => io.stderr.write(`${message}\n`),
    });
    if (!isLoopback(host)) {
      io.stderr.write(
        `cairn serve: WARNING: listening on ${host}, not loopback. Anyone who can reach this address and learns ` +
          "the token can run commands as you. Prefer an SSH tunnel; never expose it without TLS in front.\n",
      );
    }
    io.stdout.write(`cairn serve: ${driverName} session in ${cwd}\nOpen ${server.url}\n`);
    // What the page asks for first loads first: the brief's engine (a fraction of a second), then the driver's SDK.
    void import("../../app/brief.ts")
      .then((m) => m.warmBriefs())
      .catch(() => {})
      .then(() => driver.start())
      .catch((error: unknown) => io.stderr.write(`cairn serve: ${errorMessage(error)}\n`));

    await new Promise<void>((done) => {
      if (!io.signal) return;
      if (io.signal.aborted) done();
      io.signal.addEventListener("abort", () => done(), { once: true });
    });
    io.stdout.write("cairn serve: shutting down\n");
    await server.close();
    await controller.dispose();
    history.close();
    return 0;
  },
};
