/** `askQuestion` with pi's faux provider behind the real pi-ai adapter: streaming, the budget, the citation check. */
import { join } from "node:path";
import { createModels, fauxAssistantMessage, fauxProvider } from "@earendil-works/pi-ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { askQuestion } from "../../src/app/ask-answer.ts";
import { piAnswerModel } from "../../src/app/ask-model.ts";
import { createCairn } from "../../src/app/cairn.ts";
import { createTokenCounter } from "../../src/resume/tokens.ts";
import { type TempIndex, tempIndex } from "../helpers/temp-index.ts";
import { realFixturesDir } from "../helpers/transcripts.ts";

const CODEX = "codex/agtrace__rollout-2025-12-10T04-55-16-019b04ae-b1c6-7c72-a134-a4c2de66058c.jsonl";

let index: TempIndex;
let dir: string;
let db: string;
beforeAll(() => {
  index = tempIndex("cairn-ask-faux-", [join(realFixturesDir(), CODEX)]);
  ({ dir, db } = index);
});
afterAll(() => index.remove());

function userText(context: { messages: Array<{ role: string; content: unknown }> }): string {
  const m = context.messages.find((x) => x.role === "user");
  return typeof m?.content === "string" ? m.content : JSON.stringify(m?.content ?? "");
}

function idOf(pack: string, needle: string): string {
  for (const block of pack.split(/\n(?=\[e:)/)) {
    const id = /^\[e:([^\]]+)\]/.exec(block)?.[1];
    if (id && block.includes(needle)) return id;
  }
  throw new Error(`no block holds ${needle}`);
}

describe("askQuestion with pi's faux provider", () => {
  it("streams in pieces, sends a pack within the budget, and catches invented and unsupported citations", async () => {
    const faux = fauxProvider({ tokenSize: { min: 2, max: 4 } });
    const models = createModels();
    models.setProvider(faux.provider);
    let sent = "";
    faux.setResponses([
      (context) => {
        sent = userText(context);
        const shim = idOf(sent, "target shim binary not found");
        return fauxAssistantMessage(
          `Running python hoge.py failed with target shim binary not found [e:${shim}]. ` +
            "It failed because libfoo.so was missing [e:ffffffffffffffff]. " +
            `The database migration dropped every table [e:${shim}].`,
        );
      },
    ]);
    const app = createCairn({ db, env: { HOME: dir } });
    try {
      const pieces: string[] = [];
      const result = await askQuestion(app, piAnswerModel(models, faux.getModel()), {
        question: "why did python hoge.py fail?",
        budget: 1500,
        onText: (d) => pieces.push(d),
      });
      expect(pieces.length).toBeGreaterThan(1);
      expect(pieces.join("")).toBe(result.answer);
      expect(createTokenCounter().count(sent)).toBeLessThanOrEqual(1500);
      expect(result.check.sentences.map((s) => s.verdict)).toEqual(["supported", "unsupported", "unsupported"]);
      expect(result.check.sentences[1]!.citations[0]!.verdict).toBe("unknown_id");
      expect(result.check.sentences[2]!.citations[0]!.verdict).toBe("no_shared_terms");
      expect(result.cited.map((c) => c.in_pack)).toEqual([true]);
      expect(result.model).toContain("/");
    } finally {
      app.close();
    }
  });
});
