/** `pack`: the evidence pack `cairn ask` would send a model (what `--dry-run` shows). */
import type { EvidencePack } from "../../ask/pack.ts";
import type { PackRequest } from "../ask.ts";
import { question } from "./question.ts";

export const pack = question({
  name: "pack",
  summary: "the evidence a question would be answered from: hits, their chains, outcomes, decisions, a ledger",
  id: "question",
  async answer(ctx, req: PackRequest): Promise<EvidencePack> {
    const { evidencePack } = await import("../ask.ts");
    return evidencePack(ctx.app(), req);
  },
});
