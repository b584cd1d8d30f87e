import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { signUpAndSignIn } from "./support/emails";

/**
 * The guide as Preheat serves it (/docs, from docs/guide): the contents by reader, every page
 * readable on a phone in both themes, the search finding what people look for on the page that
 * answers it, the old addresses still arriving, and a dashboard page's "?" opening its guide page.
 */
test.describe.configure({ mode: "serial" });

const READERS = ["Site owners", "Integrators", "Operators", "Contributors"];

/** Every page the contents link to. */
async function guideLinks(page: Page): Promise<string[]> {
  await page.goto("/docs");
  // The contents are in the page twice, folded for a phone and open for a wide screen: either holds every link.
  const hrefs = await page
    .locator('nav[aria-label="Guide"]')
    .first()
    .locator("a")
    .evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? ""));
  return [...new Set(hrefs)];
}

test("the contents list every reader's pages, and each page says whom it is for", async ({ page }) => {
  await page.goto("/docs");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("The Preheat guide");
  for (const reader of READERS) await expect(page.getByRole("heading", { level: 2, name: reader })).toBeVisible();
  const links = await guideLinks(page);
  expect(links.length).toBeGreaterThan(40);
  await page.goto("/docs/site-owners/bot-protection");
  await expect(page.getByText(/For.+Answers:/).first()).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Guide" }).last().locator('a[aria-current="page"]')).toHaveAttribute("href", "/docs/site-owners/bot-protection");
  expect((await page.goto("/docs/site-owners/no-such-page"))?.status()).toBe(404);
});

for (const theme of ["light", "dark"] as const) {
  test(`every guide page fits a 390 px phone in the ${theme} theme`, async ({ page }) => {
    test.setTimeout(300_000);
    await page.emulateMedia({ colorScheme: theme });
    await page.setViewportSize({ width: 390, height: 844 });
    const wide: string[] = [];
    const links = await guideLinks(page);
    expect(links.length).toBeGreaterThan(40);
    for (const href of ["/docs", ...links]) {
      const response = await page.goto(href);
      expect(response?.status(), href).toBe(200);
      await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      if (overflow > 0) wide.push(`${href}: ${overflow} px too wide`);
    }
    expect(wide).toEqual([]);
  });

  test(`the guide passes axe in the ${theme} theme`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: theme });
    const findings: string[] = [];
    for (const href of ["/docs", "/docs/site-owners/first-steps", "/docs/integrators/api-conventions", "/docs/operators/configuration"]) {
      await page.goto(href);
      const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
      for (const violation of results.violations) {
        if (violation.impact === "serious" || violation.impact === "critical") findings.push(`${href} ${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
      }
    }
    expect(findings).toEqual([]);
  });
}

test("the search finds Cloudflare, worker, idempotency and two-factor on the pages that answer them", async ({ page }) => {
  await page.goto("/docs");
  const search = page.getByRole("searchbox", { name: "Search the guide" }).first();
  for (const [query, answer] of [
    ["Cloudflare", "/docs/site-owners/bot-protection"],
    ["worker", "/docs/operators/workers-and-regions"],
    ["idempotency", "/docs/integrators/api-conventions"],
    ["two-factor", "/docs/site-owners/two-factor"],
  ] as const) {
    await search.fill(query);
    const results = page.getByRole("search").first().getByRole("link");
    await expect(results.first()).toBeVisible();
    const hrefs = await results.evaluateAll((links) => links.map((a) => (a.getAttribute("href") ?? "").split("#")[0]));
    expect(hrefs, query).toContain(answer);
  }
  await search.fill("Cloudflare");
  await page.getByRole("search").first().getByRole("link").filter({ hasText: "Let Preheat through" }).first().click();
  await expect(page).toHaveURL(/\/docs\/site-owners\/bot-protection/);
});

test("the guide's old addresses lead to its new pages", async ({ page }) => {
  for (const [old, now] of [
    ["/docs/allow-listing", "/docs/site-owners/bot-protection"],
    ["/docs/beacon", "/docs/site-owners/beacon"],
    ["/docs/traffic/logs", "/docs/site-owners/traffic-logs"],
    ["/docs/change-receivers/shopify", "/docs/site-owners/change-receivers/shopify"],
  ] as const) {
    await page.goto(old);
    await expect(page).toHaveURL(new RegExp(`${now}$`));
  }
});

test("the API reference links each group of operations to its guide page", async ({ page }) => {
  await page.goto("/docs/api");
  await expect(page.getByRole("link", { name: "Read the guide on webhooks" })).toHaveAttribute("href", "/docs/integrators/webhooks");
});

test("a dashboard page's ? opens the guide page about it", async ({ page }) => {
  const stamp = Date.now().toString(36);
  await signUpAndSignIn(page, { email: `guide-${stamp}@example.com`, password: "correct horse battery" });
  await page.goto("/sites");
  await page.getByRole("link", { name: "Help for this page" }).click();
  await expect(page).toHaveURL(/\/docs\/site-owners\/first-steps$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});
