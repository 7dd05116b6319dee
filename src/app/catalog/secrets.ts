/** `secrets`: the secrets found in indexed history, where each was, its kind and fingerprint, never the value. */
import { listSecrets, type SecretsAnswer, type SecretsRequest } from "../secrets.ts";
import { question } from "./question.ts";

export const secrets = question({
  name: "secrets",
  summary: "the secrets found in indexed history: where, what kind, which fingerprint; never the value",
  answer: (ctx, req: SecretsRequest | undefined): SecretsAnswer => listSecrets(ctx.store(), req ?? {}, ctx.now()),
});
