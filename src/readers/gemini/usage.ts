/**
 * The tokens of one Gemini-style model call: Gemini CLI's `tokens:{input, output, cached, thoughts, tool, total}`
 * and the `usageMetadata:{promptTokenCount, candidatesTokenCount, cachedContentTokenCount, thoughtsTokenCount,
 * toolUsePromptTokenCount, totalTokenCount}` Qwen Code keeps. The prompt count includes the cached part (Gemini's
 * API counts cached content inside the prompt, and so does the OpenAI `prompt_tokens` Qwen Code converts), so the
 * cached tokens are taken out of it; the tool-use prompt is input the prompt count leaves out. Gemini counts its
 * thoughts apart from the candidates, while some OpenAI conversions put them inside: the total says which.
 */
import type { Obj } from "../json.ts";
import type { CallTokens } from "../types.ts";
import { count } from "../usage.ts";

type Counts = Pick<CallTokens, "input" | "output" | "cacheRead" | "reasoning">;

function countsOf(prompt: number, cached: number, tool: number, candidates: number, thoughts: number, total: unknown) {
  const cacheRead = Math.min(cached, prompt);
  // A total equal to prompt + candidates (+ tool) has the thoughts inside the candidates already.
  const inside = typeof total === "number" && thoughts > 0 && count(total) === prompt + tool + candidates;
  return {
    input: prompt - cacheRead + tool,
    cacheRead,
    output: inside ? candidates : candidates + thoughts,
    reasoning: thoughts,
  } satisfies Counts;
}

/** Gemini CLI's `tokens` of a `gemini` message. */
export function geminiTokens(t: Obj): Counts {
  return countsOf(
    count(t["input"]),
    count(t["cached"]),
    count(t["tool"]),
    count(t["output"]),
    count(t["thoughts"]),
    t["total"],
  );
}

/** A Gemini API `usageMetadata` (Qwen Code's assistant records). */
export function usageMetadataTokens(u: Obj): Counts {
  return countsOf(
    count(u["promptTokenCount"]),
    count(u["cachedContentTokenCount"]),
    count(u["toolUsePromptTokenCount"]),
    count(u["candidatesTokenCount"]),
    count(u["thoughtsTokenCount"]),
    u["totalTokenCount"],
  );
}
