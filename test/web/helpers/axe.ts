/**
 * axe-core (from npm, a devDependency) run inside the page. The source is evaluated through the DevTools
 * protocol, which the page's CSP does not govern, so the page itself keeps refusing inline script.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const source = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** Violations of WCAG 2.2 A/AA rules (2.0 and 2.1's included) whose impact is serious or critical. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(source);
  const violations = (await page.evaluate(`axe.run(document, {
    runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa", "best-practice"] },
    resultTypes: ["violations"],
  }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target, failureSummary: n.failureSummary })) })))`)) as AxeViolation[];
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

/** A readable report of violations for a failing assertion. */
export function describeViolations(violations: AxeViolation[]): string {
  return violations
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `  ${n.target.join(" ")}: ${n.failureSummary ?? ""}`).join("\n")}`,
    )
    .join("\n");
}
