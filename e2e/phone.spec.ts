import { expect, type Page, test } from "@playwright/test";
import { signUpAndSignIn } from "./support/emails";
import { originUrl } from "./support/ports";

/**
 * Every page of the dashboard, signed in with data in it, at a laptop's and a phone's width: no page
 * scrolls sideways (a table wider than the screen scrolls inside its card, with a shadow at the edge
 * that hides more).
 */
test.describe.configure({ mode: "serial" });

const stamp = Date.now().toString(36);
const owner = { email: `phone-${stamp}@example.com`, password: "correct horse battery" };
const domain = `phone-${stamp}.test`;
const dashboard = { "x-preheat-dashboard": "1" };

let page: Page;
const paths: string[] = ["/sites", "/usage", "/keys", "/webhooks", "/team", "/outbox", "/audit", "/account", "/docs/api", "/bot", "/"];

async function post<T>(path: string, data: unknown, status = 201): Promise<T> {
  const response = await page.request.post(`/api/v1${path}`, { headers: dashboard, data });
  expect(response.status(), `${path}: ${await response.text()}`).toBe(status);
  return (await response.json()) as T;
}

test.beforeAll(async ({ browser }) => {
  page = await browser.newPage();
  await signUpAndSignIn(page, owner);
  const site = await post<{ id: number; validation_token: string }>("/sites", { domain });
  const urls = Array.from({ length: 6 }, (_, i) => `http://${domain}/a-rather-long-product-path/with-more-words/${i}?colour=blue&size=large`);
  await page.request.put(`${originUrl}/__origin/hosts/${domain}`, {
    data: {
      routes: { [`/${site.validation_token}.html`]: { body: site.validation_token }, "/urls.csv": { body: `url\n${urls.join("\n")}\n`, headers: { "content-type": "text/csv" } } },
      fallback: { status: 200, body: "<p>page</p>", headers: { "x-cache": "MISS", "set-cookie": "session=1" } },
    },
  });
  await post(`/sites/${site.id}/validate`, {}, 200);
  const boost = await post<{ id: number }>(`/sites/${site.id}/boosts`, { name: "Nightly", source_type: "csv", source_url: `http://${domain}/urls.csv`, region: ["fr", "de"], schedule: "0 3 * * *" });
  const run = await post<{ run_id: number }>(`/boosts/${boost.id}/run`, {}, 202);
  await expect.poll(async () => (await (await page.request.get(`/api/v1/runs/${run.run_id}`, { headers: dashboard })).json()).status, { timeout: 30_000 }).toBe("done");
  const webhook = await post<{ id: number }>("/webhooks", { url: "https://hooks.example.org/a-long-receiver-path/for-preheat-events", events: ["run.completed", "run.failed"] });
  await page.request.post("/api/dashboard/keys", { headers: dashboard, data: { name: "A key with a rather long name for CI", scopes: ["sites:read", "runs:read"] } });
  paths.push(`/sites/${site.id}`, `/sites/${site.id}/warm`, `/sites/${site.id}/boosts/new`, `/boosts/${boost.id}`, `/runs/${run.run_id}`, `/webhooks/${webhook.id}`);
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
