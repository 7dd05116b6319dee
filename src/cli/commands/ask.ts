import type { AskAnswer } from "../../app/ask-answer.ts";
import { chooseModel, createAnswerModel, saveModel } from "../../app/ask-model.ts";
import type { CheckedSentence } from "../../ask/check.ts";
import { DEFAULT_PACK_BUDGET, renderPack } from "../../ask/pack.ts";
import { readCairn } from "../app.ts";
import { parseFlags, positiveInt } from "../args.ts";
import { EXIT } from "../exit.ts";
import { dim, green, plural, providerCell, red, shortTime } from "../format.ts";
import { type CliIo, type Command, UsageError, writeJson } from "../io.ts";

const USAGE = `Usage: cairn ask "<question>" [--session S] [--provider P --model M | --url URL --model M]
                  [--budget N] [--json] [--dry-run] [--strict] [--save] [--db PATH]

Answers a question about your agents' history from an evidence pack (search hits with their evidence chains, the
outcomes and decisions beside them, and the ledger of --session), bounded by --budget tokens (default ${DEFAULT_PACK_BUDGET}).
The model must cite [e:<id>] after every claim; cairn then checks each citation (the event is in the pack and
shares a key term with the sentence) and lists the cited events.
  --provider P --model M   a pi-ai provider (anthropic, openai, openrouter, …); the key comes from its variable
  --url URL --model M      any OpenAI-compatible server (Ollama, LM Studio, vLLM); key from CAIRN_ASK_API_KEY if set
  --dry-run                print the pack that would be sent and send nothing
  --strict                 print only the sentences whose citations check out
  --save                   remember this model for ask and resume --ai (in $XDG_CONFIG_HOME/cairn/config.json)
Without flags, CAIRN_ASK_PROVIDER, CAIRN_ASK_MODEL and CAIRN_ASK_URL choose the model, then the saved choice; with
none, nothing is sent. Keys come from the provider's variable or pi's stored logins, never from cairn's files.
Exits 3 when no model is configured, 2 for a usage mistake. See docs/ask.md.`;

export const askCommand: Command = {
  name: "ask",
  summary: "answer a question from your history with a model, every claim cited and checked",
  usage: USAGE,
  async run(argv, io) {
    const { values, positionals } = parseFlags(
      argv,
      {
        session: { type: "string", short: "s" },
        provider: { type: "string" },
        model: { type: "string", short: "m" },
        url: { type: "string" },
        budget: { type: "string" },
        json: { type: "boolean" },
        "dry-run": { type: "boolean" },
        strict: { type: "boolean" },
        save: { type: "boolean" },
        db: { type: "string" },
      },
      true,
    );
    const question = positionals.join(" ").trim();
    if (question === "") throw new UsageError("give a question");
    const budget = positiveInt("--budget", values.budget, 1_000_000) ?? DEFAULT_PACK_BUDGET;
    if (budget < 200) throw new UsageError("--budget must be at least 200 tokens");
    const req = { question, budget, ...(values.session ? { session: values.session } : {}) };
    // the model is chosen before the index is read, so that a missing one is said at once
    if (values.save && values["dry-run"]) throw new UsageError("--save remembers a model; --dry-run uses none");
    const choice = values["dry-run"] ? null : chooseModel(values, io.env);
    const app = readCairn(io, values.db, { json: values.json === true });
    try {
      if (!choice) {
        const pack = await app.pack(req);
        if (values.json) writeJson(io, pack);
        else {
          io.stdout.write(renderPack(pack));
          io.stderr.write(
            dim(
              io,
              `\n${plural(pack.items.length, "event")}, ${pack.tokens} of ${plural(pack.budget_tokens, "token")} (${pack.tokenizer}); nothing sent\n`,
            ),
          );
        }
        return EXIT.ok;
      }
      const model = await createAnswerModel(choice, io.env);
      if (values.save)
        io.stderr.write(dim(io, `saved ${model.name} as the default model in ${saveModel(choice, io.env)}\n`));
      const stream = !values.json && !values.strict;
      const result = await app.ask({
        model,
        ...req,
        ...(io.signal ? { signal: io.signal } : {}),
        ...(stream ? { onText: (delta: string) => io.stdout.write(delta) } : {}),
      });
      if (values.json) writeJson(io, result);
      else printChecked(io, result, Boolean(values.strict));
      return EXIT.ok;
    } finally {
      app.close();
    }
  },
};

function printChecked(io: CliIo, result: AskAnswer, strict: boolean): void {
  const { check } = result;
  if (strict)
    io.stdout.write(check.strict_text === "" ? "(no sentence of the answer is supported)" : check.strict_text);
  io.stdout.write("\n\n");
  const verdict = `${check.supported} of ${check.claims} claims cite evidence that supports them`;
  io.stdout.write(`${check.supported === check.claims ? green(io, "checked:") : red(io, "checked:")} ${verdict}\n`);
  for (const s of check.sentences) {
    if (s.verdict === "supported" || s.verdict === "no_claim") continue;
    io.stdout.write(
      `  ${red(io, s.verdict === "uncited" ? "uncited" : "unsupported")}${strict ? " (removed)" : ""}: ${quote(s)}\n`,
    );
    for (const c of s.citations) io.stdout.write(`    ${dim(io, `[e:${c.event_id}] ${WHY[c.verdict]}`)}\n`);
  }
  if (result.cited.length > 0) {
    io.stdout.write("cited events:\n");
    for (const e of result.cited) {
      const status = e.status ? ` (${e.status})` : "";
      const outside = e.in_pack ? "" : red(io, " not in the pack");
      io.stdout.write(
        `  ${shortTime(e.timestamp)}  ${providerCell(e.provider)} ${`${e.event_type}${status}`.padEnd(22)} ${dim(io, e.event_id)}${outside}  ${e.line}\n`,
      );
    }
  }
  io.stderr.write(
    dim(
      io,
      `${result.model}; ${plural(result.pack.items.length, "event")} in the pack, ${plural(result.pack.tokens, "token")}\n`,
    ),
  );
}

const WHY: Record<CheckedSentence["citations"][number]["verdict"], string> = {
  ok: "supports it",
  not_in_pack: "is an event, but not one the model was given",
  unknown_id: "is no event in the index (invented)",
  no_shared_terms: "shares no key term with the sentence",
};

function quote(s: CheckedSentence): string {
  return JSON.stringify(s.text.length > 160 ? `${s.text.slice(0, 159)}…` : s.text);
}
