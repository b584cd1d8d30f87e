import { mkdirSync } from "node:fs";
import path from "node:path";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { signUpWithData } from "./support/dashboard-data";

/**
 * The screenshots of README.md and the site owners' guide (`npm run screenshots`, through playwright.screenshots.config.ts; never part
 * of `npm test`): the main pages at a laptop's and a phone's size, in the light and the dark theme, as
 * docs/screenshots/<page>-<width>-<theme>.png. Each is what the screen shows, not the whole page, so the
 * files stay small and alike.
 */
test.describe.configure({ mode: "serial" });

const folder = path.resolve(import.meta.dirname, "../docs/screenshots");
const sizes = [
  [1280, 800],
  [390, 844],
] as const;
const themes = ["light", "dark"] as const;

/** `pathname` in each size and theme, once nothing is loading any more and `ready` (what arrives last) shows. */
async function shoot(page: Page, name: string, pathname: string, ready: (page: Page) => Locator[]) {
  for (const [width, height] of sizes) {
    await page.setViewportSize({ width, height });
    for (const theme of themes) {
      await page.emulateMedia({ colorScheme: theme });
      await page.goto(pathname);
      await page.waitForLoadState("networkidle");
      for (const locator of ready(page)) await expect(locator).toBeVisible();
      await expect(page.getByText("Loading…")).toHaveCount(0);
      await page.screenshot({ path: path.join(folder, `${name}-${width}-${theme}.png`), animations: "disabled" });
    }
  }
}

test.beforeAll(() => mkdirSync(folder, { recursive: true }));

test("the home page, signed out", async ({ page }) => {
  await shoot(page, "home", "/", (on) => [on.getByRole("heading", { level: 1 })]);
});

test("the dashboard's main pages, signed in with data", async ({ browser }) => {
  test.setTimeout(300_000);
  const page = await browser.newPage();
  const data = await signUpWithData(page, "ada");
  // The header's organization menu loads after the page: every signed-in page waits for it.
  const signedIn = (on: Page, ...more: Locator[]) => [on.getByRole("combobox", { name: "Organization" }), ...more];
  const domain = (on: Page) => on.getByRole("main").getByText(data.domain).first();
  await shoot(page, "sites", "/sites", (on) => signedIn(on, domain(on)));
  await shoot(page, "site", `/sites/${data.siteId}`, (on) => signedIn(on, domain(on)));
  await shoot(page, "boost", `/boosts/${data.boostId}`, (on) => signedIn(on, domain(on)));
  await shoot(page, "run", `/runs/${data.runId}`, (on) => signedIn(on, domain(on)));
  await shoot(page, "usage", "/usage", (on) => signedIn(on, on.getByTestId("usage-chart")));
  await shoot(page, "keys", "/keys", (on) => signedIn(on, on.getByText("A key with a rather long name for CI")));
  await page.close();
});
