import { expect, type Page, test } from "@playwright/test";
import { signUpAndSignIn } from "./support/emails";

/**
 * The site page's Traffic panel, as an owner meets it: an access log is added as a source, its file
 * uploaded from the computer, and the counts and the popularity table follow, most visited first.
 */
test.describe.configure({ mode: "serial" });

const owner = { email: `traffic-${Date.now()}@example.com`, password: "correct horse battery" };
const domain = `visited-${Date.now().toString(36)}.test`;

/** Lines as nginx's default `combined` format writes them. */
const line = (path: string, agent = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15") =>
  `198.51.100.4 - - [27/Nov/2026:08:01:12 +0000] "GET ${path} HTTP/2.0" 200 9120 "https://${domain}/" "${agent}"`;
const log = [...Array(12).fill(line("/best-sellers")), ...Array(3).fill(line("/")), line("/favicon.ico"), line("/", "Googlebot/2.1 (+http://www.google.com/bot.html)")].join("\n");

let page: Page;
test.beforeAll(async ({ browser }) => {
  page = await browser.newPage();
});
test.afterAll(async () => {
  await page.close();
});

test("an access log added as a source and uploaded fills the popularity table, most visited first", async () => {
  await signUpAndSignIn(page, owner);
  await page.getByLabel("Domain").fill(`https://${domain}/`);
  await page.getByRole("button", { name: "Add site" }).click();
  await expect(page.getByRole("heading", { name: domain })).toBeVisible();

  await expect(page.getByRole("heading", { name: "Traffic", level: 2, exact: true })).toBeVisible();
  await expect(page.getByText("No traffic data yet")).toBeVisible();
  await page.getByRole("combobox", { name: "Kind", exact: true }).selectOption("access_log");
  await page.getByLabel("Name (optional)").fill("nginx on web-1");
  await page.getByRole("button", { name: "Add source" }).click();

  const source = page.getByTestId("traffic-source");
  await expect(source).toContainText("nginx on web-1");
  await source.getByLabel("Upload a log").setInputFiles({ name: "access.log", mimeType: "text/plain", buffer: Buffer.from(log) });
  await source.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(source).toContainText("Visits counted");
  await expect(source).toContainText("1 assets, 1 bots");

  const table = page.getByRole("table", { name: /by visits over the last 30 days/ });
  await expect(table.getByRole("row").nth(1)).toContainText("/best-sellers");
  await expect(table.getByRole("row").nth(1)).toContainText("12");
  await expect(table.getByRole("row").nth(2)).toContainText("3");
  await expect(page.getByText("2 pages, 15 visits over the last 30 days")).toBeVisible();
});
