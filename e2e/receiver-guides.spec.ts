import { expect, test } from "@playwright/test";

/**
 * The change receivers' guides as the site serves them: the index links one page per system, each
 * renders its steps (tables and code included), and none scrolls sideways on a phone.
 */
const SYSTEMS = ["shopify", "contentful", "sanity", "strapi", "netlify", "vercel", "wordpress"];

test("the index links a page per system, each readable on a phone", async ({ page }) => {
  await page.goto("/docs/change-receivers");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/Change receivers/);
  await expect(page.locator("table").first()).toBeVisible();
  for (const system of SYSTEMS) await expect(page.locator(`a[href="/docs/change-receivers/${system}"]`)).toHaveCount(1);
  await page.setViewportSize({ width: 390, height: 844 });
  for (const system of SYSTEMS) {
    await page.goto(`/docs/change-receivers/${system}`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.locator("a[href='/docs/change-receivers']")).toHaveCount(1);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, system).toBe(0);
  }
  expect((await page.goto("/docs/change-receivers/drupal"))?.status()).toBe(404);
});
