import { expect, type Page } from "@playwright/test";
import { signUpAndSignIn } from "./emails";
import { originUrl } from "./ports";

/** The dashboard's own calls: the session's cookie is enough with this header. */
const dashboard = { "x-preheat-dashboard": "1" };

/** What a new owner's dashboard holds once `signUpWithData` has filled it. */
export type DashboardData = { email: string; domain: string; siteId: number; unvalidatedSiteId: number; boostId: number; runId: number; webhookId: number; emailId: number };

async function post<T>(page: Page, path: string, data: unknown, status = 201): Promise<T> {
  const response = await page.request.post(`/api/v1${path}`, { headers: dashboard, data });
  expect(response.status(), `${path}: ${await response.text()}`).toBe(status);
  return (await response.json()) as T;
}

/**
 * A new owner signed in on `page`, with something on every page: a validated site served by the local
 * origin (long URLs, pages that stay cold) with a sitemap, a scheduled boost on two regions and its
 * finished run, a webhook, an API key, and a second site not validated (its page shows the ownership
 * proofs). Names and paths are long on purpose, to show what a narrow screen does with them.
 */
export async function signUpWithData(page: Page, name: string): Promise<DashboardData> {
  const stamp = Date.now().toString(36);
  const domain = `${name}-${stamp}.test`;
  const email = `${name}-${stamp}@example.com`;
  await signUpAndSignIn(page, { email, password: "correct horse battery" });
  const site = await post<{ id: number; validation_token: string }>(page, "/sites", { domain });
  const urls = Array.from({ length: 6 }, (_, i) => `http://${domain}/a-rather-long-product-path/with-more-words/${i}?colour=blue&size=large`);
  await page.request.put(`${originUrl}/__origin/hosts/${domain}`, {
    data: {
      routes: {
        [`/${site.validation_token}.html`]: { body: site.validation_token },
        "/urls.csv": { body: `url\n${urls.join("\n")}\n`, headers: { "content-type": "text/csv" } },
        "/sitemap.xml": { body: sitemapOf(urls), headers: { "content-type": "application/xml" } },
      },
      fallback: { status: 200, body: "<p>page</p>", headers: { "x-cache": "MISS", "set-cookie": "session=1" } },
    },
  });
  await post(page, `/sites/${site.id}/validate`, {}, 200);
  await post(page, `/sites/${site.id}/sitemaps`, { url: `http://${domain}/sitemap.xml` });
  const boost = await post<{ id: number }>(page, `/sites/${site.id}/boosts`, {
    name: "Nightly",
    source_type: "csv",
    source_url: `http://${domain}/urls.csv`,
    region: ["fr", "de"],
    schedule: "0 3 * * *",
  });
  const run = await post<{ run_id: number }>(page, `/boosts/${boost.id}/run`, {}, 202);
  await expect.poll(async () => (await (await page.request.get(`/api/v1/runs/${run.run_id}`, { headers: dashboard })).json()).status, { timeout: 30_000 }).toBe("done");
  const webhook = await post<{ id: number }>(page, "/webhooks", { url: "https://hooks.example.org/a-long-receiver-path/for-preheat-events", events: ["run.completed", "run.failed"] });
  const key = await page.request.post("/api/dashboard/keys", { headers: dashboard, data: { name: "A key with a rather long name for CI", scopes: ["sites:read", "runs:read"] } });
  expect(key.ok(), await key.text()).toBe(true);
  const unvalidated = await post<{ id: number }>(page, "/sites", { domain: `a-second-site-with-a-long-name-${domain}` });
  // The sign-up's confirmation is the owner's first e-mail.
  const outbox = await page.request.get("/api/dashboard/outbox?limit=1", { headers: dashboard });
  const [confirmation] = ((await outbox.json()) as { data: { id: number }[] }).data;
  if (!confirmation) throw new Error("the new owner's outbox is empty");
  return { email, domain, siteId: site.id, unvalidatedSiteId: unvalidated.id, boostId: boost.id, runId: run.run_id, webhookId: webhook.id, emailId: confirmation.id };
}

function sitemapOf(urls: string[]): string {
  const entries = urls.map((url) => `<url><loc>${url.replaceAll("&", "&amp;")}</loc></url>`).join("");
  return `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries}</urlset>`;
}

/** Every page a signed-in owner can open, those of the records `signUpWithData` made included. */
export function dashboardPaths(data: DashboardData): string[] {
  return [
    "/sites",
    "/usage",
    "/keys",
    "/webhooks",
    "/team",
    "/outbox",
    "/audit",
    "/account",
    "/docs/api",
    "/bot",
    "/",
    `/outbox/${data.emailId}`,
    `/sites/${data.siteId}`,
    `/sites/${data.unvalidatedSiteId}`,
    `/sites/${data.siteId}/warm`,
    `/sites/${data.siteId}/boosts/new`,
    `/boosts/${data.boostId}`,
    `/boosts/${data.boostId}/edit`,
    `/runs/${data.runId}`,
    `/webhooks/${data.webhookId}`,
  ];
}
