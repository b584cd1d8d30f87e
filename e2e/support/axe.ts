import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

/**
 * WCAG 2 A and AA (colour contrast among them) on the page as it is now, read by axe-core: the serious
 * and critical findings, one line each, under `label` (the path, the theme, the width). The page must
 * belong to a context of the test's own: axe-core's builder does not read one of browser.newPage().
 */
export async function axeFindings(page: Page, label: string): Promise<string[]> {
  // A frame sandboxed without scripts (an outbox e-mail as sent) takes no axe-core: waiting for it would hang the run.
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).exclude("iframe[sandbox]").analyze();
  const findings: string[] = [];
  for (const violation of results.violations) {
    if (violation.impact !== "serious" && violation.impact !== "critical") continue;
    for (const node of violation.nodes) findings.push(`${label} ${violation.id}: ${node.target.join(" ")} — ${node.failureSummary?.replace(/\s+/g, " ")}`);
  }
  return findings;
}
