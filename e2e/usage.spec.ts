import { expect, type Page, test } from "@playwright/test";
import { signUpAndSignIn } from "./support/emails";
import { originUrl } from "./support/ports";

/**
 * What a customer spends, in order: the boost form prices a schedule a month against the quota and
 * asks before saving one that costs more; the Usage page shows the calls per day, split by site and
 * by boost, and the month's projection. The local origin plays a validated site of 50 pages.
 */
test.describe.configure({ mode: "serial" });

const stamp = Date.now().toString(36);
const owner = { email: `usage-${stamp}@example.com`, password: "correct horse battery" };
const domain = `usage-${stamp}.test`;
const PAGES = 50;
/** The e2e server's default: PREHEAT_MONTHLY_CALL_QUOTA is not set. */
const QUOTA = 100_000;
const dashboard = { "x-preheat-dashboard": "1" };

let page: Page;
let siteId = 0;
const boostIds: number[] = [];

async function post<T>(path: string, data: unknown, status = 201): Promise<T> {
  const response = await page.request.post(`/api/v1${path}`, { headers: dashboard, data });
  expect(response.status(), `${path}: ${await response.text()}`).toBe(status);
  return (await response.json()) as T;
}

test.beforeAll(async ({ browser }) => {
  page = await browser.newPage();
  await signUpAndSignIn(page, owner);
  const site = await post<{ id: number; validation_token: string }>("/sites", { domain });
  siteId = site.id;
  const urls = Array.from({ length: PAGES }, (_, i) => `http://${domain}/p/${i}`);
  const served = await page.request.put(`${originUrl}/__origin/hosts/${domain}`, {
    data: {
      routes: {
        [`/${site.validation_token}.html`]: { body: site.validation_token },
        "/urls.csv": { body: `url\n${urls.join("\n")}\n`, headers: { "content-type": "text/csv" } },
      },
      fallback: { status: 200, body: "<p>page</p>", headers: { "cf-cache-status": "HIT" } },
    },
  });
  expect(served.status()).toBe(204);
  // Validated: a run warms all 50 pages, not the first 10 of a site whose ownership is not proven.
  await post(`/sites/${siteId}/validate`, {}, 200);
});

test.afterAll(async () => {
  // The boost of every minute would go on firing for the specs after this one.
  for (const id of boostIds) await page.request.delete(`/api/v1/boosts/${id}`, { headers: dashboard });
  await page.close();
});

test("the boost form prices the schedule a month against the quota, and asks before saving one that costs more", async () => {
  await page.goto(`/sites/${siteId}/boosts/new`);
  await page.getByLabel("Name", { exact: true }).fill("Every minute");
  await page.getByLabel("CSV file", { exact: true }).check();
  await page.getByLabel("CSV file URL").fill(`http://${domain}/urls.csv`);
  const estimate = page.getByTestId("boost-estimate");
  await expect(estimate).toContainText(`A run now would warm ${PAGES} URLs with ${PAGES} calls`);
  const cost = page.getByTestId("boost-monthly-cost");
  await expect(cost).toContainText("No schedule");

  // 43,200 runs in 30 days × 50 calls = 2,160,000 calls: 21.6 times the quota.
  await page.getByLabel("Schedule (cron, UTC)").fill("* * * * *");
  await expect(cost).toContainText("≈ 2,160,000 calls a month: 22 times your quota of 100,000");
  await expect(cost).toHaveClass(/text-red-700/);

  await page.getByRole("button", { name: "Create boost" }).click();
  const warning = page.getByTestId("boost-cost-warning");
  await expect(warning).toContainText("This schedule would spend about 22 times your monthly quota of 100,000 calls");
  await page.screenshot({ path: "test-results/screenshots/boost-cost-warning.png", fullPage: true });
  await expect(page).toHaveURL(/\/boosts\/new$/);

  await warning.getByRole("button", { name: "Change schedule" }).click();
  await expect(warning).toHaveCount(0);
  await expect(page.getByLabel("Schedule (cron, UTC)")).toBeFocused();
  // Daily: 30 runs × 50 calls.
  await page.getByLabel("Schedule (cron, UTC)").fill("0 3 * * *");
  await expect(cost).toContainText("≈ 1,500 calls a month: 1.5 % of your quota of 100,000");
  await expect(cost).not.toHaveClass(/text-red-700/);

  await page.getByLabel("Schedule (cron, UTC)").fill("* * * * *");
  await expect(cost).toContainText("22 times your quota");
  await page.getByRole("button", { name: "Create boost" }).click();
  await warning.getByRole("button", { name: "Save anyway" }).click();
  await expect(page.getByRole("heading", { name: "Every minute" })).toBeVisible();
  const saved = Number(new URL(page.url()).pathname.split("/").pop());
  boostIds.push(saved);
  const priced = await (await page.request.get(`/api/v1/boosts/${saved}/estimate`, { headers: dashboard })).json();
  expect(priced).toMatchObject({ calls: PAGES, monthly_quota: QUOTA });
  expect(Math.abs(priced.calls_per_month / PAGES - 43_200)).toBeLessThanOrEqual(1);
});

test("the Usage page shows the calls per day, by site and by boost, and the month's projection against the quota", async () => {
  const daily = await post<{ id: number }>(`/sites/${siteId}/boosts`, { name: "Daily pages", source_type: "csv", source_url: `http://${domain}/urls.csv`, region: ["fr"], schedule: "0 3 * * *" });
  boostIds.push(daily.id);
  await post(`/boosts/${daily.id}/run`, {}, 202);
  // A boost run counts its calls once it is planned.
  await expect.poll(async () => (await (await page.request.get("/api/v1/usage", { headers: dashboard })).json()).total, { timeout: 30_000 }).toBeGreaterThanOrEqual(PAGES);

  await page.getByRole("link", { name: "Usage", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Usage", exact: true })).toBeVisible();
  const chart = page.getByTestId("usage-chart");
  await expect(chart.getByRole("img", { name: /Calls per day from/ })).toBeVisible();
  await chart.getByText("Show the figures as a table").click();
  const today = new Date().toISOString().slice(0, 10);
  await expect(chart.getByRole("row", { name: new RegExp(`^${today} `) })).toBeVisible();

  const bySite = page.locator("section").filter({ has: page.getByRole("heading", { name: "By site" }) });
  await expect(bySite.getByRole("link", { name: domain })).toHaveAttribute("href", `/sites/${siteId}`);
  const byBoost = page.locator("section").filter({ has: page.getByRole("heading", { name: "By boost" }) });
  await expect(byBoost.getByRole("link", { name: "Daily pages" })).toHaveAttribute("href", `/boosts/${daily.id}`);

  const projection = page.getByTestId("usage-projection");
  await expect(projection).toContainText("Monthly quota");
  await expect(projection).toContainText("100,000");
  await expect(projection.getByRole("link", { name: "Every minute" })).toBeVisible();
  await expect(projection).toContainText("The quota counts the planned calls of every run created this month");
  // The schedule of every minute passes the quota unless the month is nearly over: the page says so when the API does.
  const usage = await (await page.request.get("/api/v1/usage", { headers: dashboard })).json();
  if (usage.projection.over_quota) await expect(projection.getByRole("alert")).toContainText(/At this pace the month ends at [\d,]+ calls: [\d.,]+ times your quota of 100,000/);
  else await expect(projection.getByRole("alert")).toHaveCount(0);
  await page.screenshot({ path: "test-results/screenshots/usage.png", fullPage: true });

  await page.getByRole("button", { name: "Last month" }).click();
  await expect(page.getByText("No calls in this period")).toBeVisible();

  // On a phone: nothing wider than the screen.
  await page.getByRole("button", { name: "This month" }).click();
  await expect(chart).toBeVisible();
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await page.screenshot({ path: "test-results/screenshots/mobile-usage.png", fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });
});
