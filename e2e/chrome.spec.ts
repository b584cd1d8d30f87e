import { expect, test } from "@playwright/test";
import { signUpAndSignIn } from "./support/emails";

/** Around the pages: the favicon, a branded page for an address that leads nowhere, and the header saying where you are. */

const stamp = Date.now().toString(36);

test("the favicon is served, as a file and as the page's icon", async ({ page, request }) => {
  const ico = await request.get("/favicon.ico");
  expect(ico.status()).toBe(200);
  expect(ico.headers()["content-type"]).toMatch(/image\//);
  await page.goto("/");
  const icon = await page.locator('link[rel="icon"]').first().getAttribute("href");
  expect(icon).toBeTruthy();
  expect((await request.get(icon!)).status()).toBe(200);
});

test("an unknown page answers 404 with the product's page and ways back", async ({ page }) => {
  const response = await page.goto(`/no-such-page-${stamp}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "This page does not exist" })).toBeVisible();
  await page.getByRole("link", { name: "Home" }).last().click();
  await expect(page).toHaveURL(/\/$|\/sites$/);
});

test("the header marks the section you are in", async ({ page }) => {
  await signUpAndSignIn(page, { email: `chrome-${stamp}@example.com`, password: "correct horse battery" });
  await page.goto("/usage");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Usage" })).toHaveAttribute("aria-current", "page");
  await expect(nav.getByRole("link", { name: "Sites" })).not.toHaveAttribute("aria-current", "page");
  await page.goto("/sites");
  await expect(nav.getByRole("link", { name: "Sites" })).toHaveAttribute("aria-current", "page");
});
