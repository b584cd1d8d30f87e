import { expect, type Page, test } from "@playwright/test";
import { dashboardPaths, signUpWithData } from "./support/dashboard-data";

/**
 * Every page of the dashboard, signed in with data in it, at a laptop's and a phone's width: no page
 * scrolls sideways (a table wider than the screen scrolls inside its card, with a shadow at the edge
 * that hides more).
 */
test.describe.configure({ mode: "serial" });

let page: Page;
let paths: string[] = [];

test.beforeAll(async ({ browser }) => {
  page = await browser.newPage();
  paths = dashboardPaths(await signUpWithData(page, "phone"));
});

test.afterAll(() => page.close());

for (const [width, height] of [
  [1280, 800],
  [390, 844],
] as const) {
  test(`no page scrolls sideways at ${width} × ${height}`, async () => {
    await page.setViewportSize({ width, height });
    const wide: string[] = [];
    for (const path of paths) {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      if (overflow > 0) wide.push(`${path}: ${overflow} px too wide`);
    }
    expect(wide).toEqual([]);
  });
}
