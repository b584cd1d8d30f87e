import { expect, type Page, test } from "@playwright/test";
import { signUpAndSignIn } from "./support/emails";
import { originUrl } from "./support/ports";

/**
 * A new boost and its first run as the owner watches them (issue 60, item 9): the form asks for no
 * estimate the API would refuse while its sitemaps load, and from "Run now" to the run's end the
 * boost's status and its runs table never disagree about a run being under way.
 */
test.describe.configure({ mode: "serial" });

const stamp = Date.now().toString(36);
const domain = `agree-${stamp}.test`;
const PAGES = 20;
const dashboard = { "x-preheat-dashboard": "1" };

let page: Page;
let siteId = 0;

async function post<T>(path: string, data: unknown, status = 201): Promise<T> {
  const response = await page.request.post(`/api/v1${path}`, { headers: dashboard, data });
  expect(response.status(), `${path}: ${await response.text()}`).toBe(status);
  return (await response.json()) as T;
}

test.beforeAll(async ({ browser }) => {
  page = await browser.newPage();
  await signUpAndSignIn(page, { email: `agree-${stamp}@example.com`, password: "correct horse battery" });
  const site = await post<{ id: number; validation_token: string }>("/sites", { domain });
  siteId = site.id;
  const sitemap = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${Array.from({ length: PAGES }, (_, i) => `<url><loc>http://${domain}/products/${i}</loc></url>`).join("")}</urlset>`;
  const served = await page.request.put(`${originUrl}/__origin/hosts/${domain}`, {
    data: {
      routes: { [`/${site.validation_token}.html`]: { body: site.validation_token }, "/sitemap.xml": { body: sitemap, headers: { "content-type": "application/xml" } } },
      // Slow pages: the run lasts long enough to be seen queued and warming.
      fallback: { status: 200, body: "<p>page</p>", delayMs: 250 },
    },
  });
  expect(served.status()).toBe(204);
  await post(`/sites/${site.id}/validate`, {}, 200);
  await post(`/sites/${site.id}/sitemaps`, { url: `http://${domain}/sitemap.xml` });
});
test.afterAll(async () => {
  await page.close();
});

test("a new boost asks for its estimate only once its sitemap is chosen: no request refused", async () => {
  const refused: string[] = [];
  const asked: number[] = [];
  page.on("response", (response) => {
    if (!response.url().includes("/boost-estimate")) return;
    asked.push(response.status());
    if (response.status() >= 400) refused.push(`${response.status()} ${response.url()}`);
  });
  await page.goto(`/sites/${siteId}/boosts/new`);
  // The site's only sitemap is checked once the list has loaded; the estimate follows it.
  await expect(page.getByLabel(`http://${domain}/sitemap.xml`)).toBeChecked();
  await page.getByLabel("Name", { exact: true }).fill("Agree");
  await expect(page.getByTestId("boost-estimate")).toContainText(`A run now would warm ${PAGES} URLs with ${PAGES} calls`);
  expect(asked.length).toBeGreaterThan(0);
  expect(refused).toEqual([]);
  await page.getByRole("button", { name: "Create boost" }).click();
  await expect(page.getByRole("heading", { name: "Agree" })).toBeVisible();
  page.removeAllListeners("response");
});

test("from Run now to the run's end, the boost's status and its runs table agree", async () => {
  await expect(page.getByText("No runs yet")).toBeVisible();
  // Every state the page shows, as it changes: the boost's badge and the status of the table's newest run.
  await page.evaluate(() => {
    const badge = () => document.querySelector('[data-testid="boost-status"] > span')?.childNodes[0]?.textContent ?? "?";
    const newestRun = () => {
      const caption = [...document.querySelectorAll("caption")].find((element) => element.textContent === "Runs of this boost, newest first");
      if (!caption) return document.body.textContent?.includes("No runs yet") ? "none" : "loading";
      return caption.closest("table")?.querySelector("tbody tr td:nth-child(2) > span")?.childNodes[0]?.textContent ?? "?";
    };
    const seen: string[][] = [];
    (window as unknown as { seen: string[][] }).seen = seen;
    const record = () => {
      const state = [badge(), newestRun()];
      const last = seen[seen.length - 1];
      if (!last || last[0] !== state[0] || last[1] !== state[1]) seen.push(state);
    };
    record();
    new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await page.getByRole("button", { name: "Run now" }).click();
  await expect(page.getByRole("status").filter({ hasText: "A run is queued" })).toBeVisible();
  const table = page.getByRole("table", { name: "Runs of this boost, newest first" });
  await expect(table.getByRole("row").nth(1)).toContainText("done", { timeout: 60_000 });
  await expect(page.getByTestId("boost-status")).toContainText("active");
  const seen = await page.evaluate(() => (window as unknown as { seen: string[][] }).seen);
  console.log(`the boost page's states (badge, newest run): ${seen.map(([badge, run]) => `${badge}/${run}`).join(" → ")}`);
  const active = ["pending", "running"];
  const disagreements = seen.filter(([badge, run]) => run !== "loading" && (badge === "running") !== active.includes(run!));
  expect(disagreements).toEqual([]);
  expect(seen.some(([badge, run]) => badge === "running" && active.includes(run!))).toBe(true);
});
