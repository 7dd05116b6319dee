/**
 * The rule list the markers in src/secrets/rules.ts were written for. A secretlint upgrade that adds or renames a
 * rule fails here until RULE_MARKERS (and the kind names) take the new rule in.
 */
import { rules } from "@secretlint/secretlint-rule-preset-recommend";
import { expect, it } from "vitest";

it("the recommended preset still has the rules the markers cover", () => {
  const ids = (rules as unknown as Array<{ meta: { id: string } }>).map((r) =>
    r.meta.id.replace("@secretlint/secretlint-rule-", ""),
  );
  expect(ids.sort()).toEqual(
    [
      "1password",
      "anthropic",
      "aws",
      "basicauth",
      "cloudflare",
      "database-connection-string",
      "databricks",
      "docker",
      "figma",
      "filter-comments",
      "gcp",
      "github",
      "gitlab",
      "grafana",
      "groq",
      "hashicorp-vault",
      "huggingface",
      "linear",
      "notion",
      "npm",
      "openai",
      "privatekey",
      "sendgrid",
      "shopify",
      "slack",
      "stripe",
      "tailscale",
      "vercel",
    ].sort(),
  );
});
