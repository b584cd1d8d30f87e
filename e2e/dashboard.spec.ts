import { readFile } from "node:fs/promises";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { signUpAndSignIn } from "./support/emails";
import { originUrl } from "./support/ports";

/**
 * A site owner's whole first session, in one browser, in order: each step needs the one before.
 * The local origin plays shop.test (reached through PREHEAT_CONNECT_TO), answering as a Cloudflare
 * cache would.
 */
test.describe.configure({ mode: "serial" });

const domain = `shop-${Date.now().toString(36)}.test`;
const owner = { name: "Ada Owner", email: `owner-${Date.now()}@example.com`, password: "correct horse battery" };
const PAGES = 12;

const sitemap = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${Array.from({ length: PAGES }, (_, i) => `<url><loc>http://${domain}/products/${i}</loc></url>`).join("")}</urlset>`;

async function serveSite(request: APIRequestContext, extraRoutes: Record<string, { status?: number; body?: string; headers?: Record<string, string> }> = {}) {
  const response = await request.put(`${originUrl}/__origin/hosts/${domain}`, {
    data: {
      routes: {
        "/sitemap.xml": { body: sitemap, headers: { "content-type": "application/xml" } },
        // Two pages that stay cold, for the run page's reasons: one sets a cookie, one is a cacheable miss.
        "/products/0": { body: "<p>cart</p>", headers: { "cf-cache-status": "MISS", "cf-ray": "8f1e2d3c4b5a6979-CDG", "set-cookie": "cart=1; Path=/" } },
        "/products/1": { body: "<p>new</p>", headers: { "cf-cache-status": "MISS", "cf-ray": "8f1e2d3c4b5a6970-CDG", "cache-control": "public, s-maxage=600" } },
        ...extraRoutes,
      },
      fallback: { status: 200, body: "<html><body>product</body></html>", headers: { "cf-cache-status": "HIT", "cf-ray": "8f1e2d3c4b5a6978-CDG" } },
    },
  });
  expect(response.status()).toBe(204);
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: true });
}

let page: Page;
let apiKey = "";
let siteUrl = "";
let boostUrl = "";
let runUrl = "";

test.beforeAll(async ({ browser }) => {
  page = await browser.newPage();
});
test.afterAll(async () => {
  await page.close();
});

test("sign up e-mails a link; on its page the owner chooses the password, and is signed in", async () => {
  await signUpAndSignIn(page, owner);
  await expect(page.getByRole("heading", { name: "Sites", exact: true })).toBeVisible();
  await expect(page.getByText("No sites yet")).toBeVisible();
});

test("an API key is created, shown once, and works", async ({ request }) => {
  await page.getByRole("link", { name: "API keys" }).click();
  await page.getByLabel("Key name").fill("CI");
  // No scope is ticked until one is chosen: a preset ticks what its job needs.
  await expect(page.getByRole("group", { name: "Scopes" }).getByRole("checkbox", { checked: true })).toHaveCount(0);
  await page.getByRole("button", { name: "Everything" }).click();
  await page.getByRole("button", { name: "Create key" }).click();
  const shown = page.getByLabel("New API key");
  await expect(shown).toHaveValue(/^phk_/);
  apiKey = await shown.inputValue();
  await expect(page.getByTestId("api-key-row").filter({ hasText: "CI" })).toContainText("active");
  await shot(page, "api-keys");
  const me = await request.get("/v1/me", { headers: { authorization: `Bearer ${apiKey}` } });
  expect(me.status()).toBe(200);
  expect((await me.json()).scopes).toContain("boosts:write");
});

test("a site is added, fails validation, then validates with its token file", async ({ request }) => {
  await serveSite(request);
  await page.getByRole("link", { name: "Sites", exact: true }).click();
  await page.getByLabel("Domain").fill(`https://${domain}/`);
  await page.getByRole("button", { name: "Add site" }).click();
  await expect(page.getByRole("heading", { name: domain })).toBeVisible();
  siteUrl = new URL(page.url()).pathname;

  await page.getByRole("button", { name: "Validate now" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Not validated" })).toContainText("Token file: ");
  await expect(page.getByRole("alert").filter({ hasText: "Not validated" })).toContainText("DNS TXT record: ");
  // The third method's record, name and value, each with its copy button.
  const dnsProof = page.getByTestId("dns-proof");
  await expect(dnsProof).toContainText(`_preheat-challenge.${domain}`);
  await expect(dnsProof).toContainText("preheat-site-verification=preheat-");
  await expect(dnsProof.getByRole("button", { name: "Copy record name" })).toBeVisible();
  await expect(dnsProof.getByRole("button", { name: "Copy record value" })).toBeVisible();
  await shot(page, "site-not-validated");

  const metaTag = await page.locator("pre").filter({ hasText: "service-token" }).textContent();
  const token = /content="([^"]+)"/.exec(metaTag ?? "")![1]!;
  await serveSite(request, { [`/${token}.html`]: { body: token } });
  await page.getByRole("button", { name: "Validate now" }).click();
  await expect(page.getByRole("heading", { name: "Ownership" })).toBeVisible();
  await expect(page.getByText("with the token file")).toBeVisible();
});

test("a sitemap is added and its URL count appears when it is read", async () => {
  await page.getByLabel("Sitemap URL").fill(`http://${domain}/sitemap.xml`);
  await page.getByRole("button", { name: "Add sitemap" }).click();
  const row = page.getByTestId("sitemap-row").filter({ hasText: "sitemap.xml" });
  await expect(row.getByText("done", { exact: true })).toBeVisible();
  await expect(row).toContainText(`${PAGES} URLs`);
  await shot(page, "site-validated");
});

test("the owner sets the site's pace; a value over the operator's maximum is refused with its reason", async () => {
  const pace = page.locator("section").filter({ has: page.getByRole("heading", { name: "Pace" }) });
  await expect(pace.getByLabel("Calls at once")).toHaveValue("4");
  await pace.getByLabel("Calls at once").fill("99");
  await pace.getByRole("button", { name: "Save pace" }).click();
  // Said under the field, in the server's words, and gone once the field changes.
  await expect(pace.getByLabel("Calls at once")).toHaveAccessibleDescription(/the most this service sends any site at once/);
  await pace.getByLabel("Calls at once").fill("3");
  await expect(pace.getByLabel("Calls at once")).not.toHaveAttribute("aria-invalid", "true");
  await pace.getByLabel("Calls per second (optional)").fill("50");
  await pace.getByRole("button", { name: "Save pace" }).click();
  await expect(pace.getByRole("status")).toContainText("Saved");
  const site = await page.request.get(`/api/v1${siteUrl}`, { headers: { "x-preheat-dashboard": "1" } });
  expect(await site.json()).toMatchObject({ max_concurrency: 3, max_requests_per_second: 50 });
});

test("a scheduled boost with variations is created and run; its run reaches done", async () => {
  await page.getByRole("link", { name: "New boost" }).click();
  await page.getByLabel("Name", { exact: true }).fill("Nightly products");
  await page.getByLabel(`http://${domain}/sitemap.xml`).check();
  await page.getByLabel("France (fr)").check();
  await page.getByLabel("Germany (de)").check();
  await page.getByLabel("mobile", { exact: true }).check();
  await page.getByLabel("desktop", { exact: true }).check();
  await page.getByLabel("Languages").fill("fr-FR");
  await page.getByLabel("Schedule (cron, UTC)").fill("0 3 * * *");
  await expect(page.getByText(/At 03:00/i).first()).toBeVisible();
  // The live estimate: 12 URLs × 2 user agents × 1 language × 2 regions, 24 per region.
  const estimate = page.getByTestId("boost-estimate");
  await expect(estimate).toContainText("A run now would warm 12 URLs with 48 calls");
  await expect(estimate).toContainText("fr: 24 · de: 24");
  await page.getByLabel("Call limit").fill("30");
  await expect(estimate).toContainText("with 30 calls");
  await expect(estimate).toContainText("stopped at the call limit of 30");
  await page.getByLabel("Call limit").fill("");
  await expect(estimate).toContainText("with 48 calls");
  await shot(page, "boost-form");
  await page.getByRole("button", { name: "Create boost" }).click();
  await expect(page.getByRole("heading", { name: "Nightly products" })).toBeVisible();
  boostUrl = new URL(page.url()).pathname;

  await page.getByRole("button", { name: "Run now" }).click();
  await expect(page.getByRole("progressbar").first()).toBeVisible();
  // 12 URLs × 2 user agents × 1 language × 2 regions.
  await expect(page.getByText("48 of 48 calls").first()).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText("done", { exact: true }).first()).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole("heading", { name: "Success rate" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Cache-hit ratio" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Response time" })).toBeVisible();
  await shot(page, "boost");
});

test("the run page shows the figures, why calls were not cached, and cold vs warm per PoP", async () => {
  // Named by its ordinal within the boost, found by its id in the URL.
  await page.getByRole("link", { name: "Run 1", exact: true }).click();
  await expect(page).toHaveURL(/\/runs\/\d+$/);
  await expect(page.getByRole("heading", { name: "Run 1 of Nightly products" })).toBeVisible();
  runUrl = new URL(page.url()).pathname;
  const pops = page.getByRole("heading", { name: /Calls per PoP/ });
  await expect(pops).toBeVisible();
  await expect(page.getByTestId("pops-breakdown").getByRole("cell", { name: "CDG" })).toBeVisible();
  await expect(page.getByTestId("pops-breakdown").getByRole("columnheader", { name: "Avg. miss" })).toBeVisible();
  // 2 pages × 2 user agents × 2 regions: 4 calls set a cookie, 4 are cacheable misses.
  await expect(page.getByRole("heading", { name: "Why calls were not cached" })).toBeVisible();
  const reasons = page.getByTestId("not-cached-reason");
  await expect(reasons).toHaveCount(2);
  await expect(page.locator('[data-reason="set_cookie"]')).toContainText("4");
  await expect(page.locator('[data-reason="set_cookie"]')).toContainText("stop setting cookies");
  await expect(page.locator('[data-reason="miss"]')).toContainText("4");
  await expect(page.getByText("Warm vs cold")).toBeVisible();
  await expect(page.getByTestId("run-figures")).toContainText("Cacheable misses");
  // URL by URL: the 8 calls that were not a hit, filtered by reason, searched by URL, and as CSV downloads.
  const calls = page.getByTestId("run-calls");
  await expect(calls.getByRole("row")).toHaveCount(9);
  await expect(calls).toContainText("Cacheable miss: warmed");
  await page.getByLabel("Show").selectOption("reason:set_cookie");
  await expect(calls.getByRole("row")).toHaveCount(5);
  await expect(calls).toContainText(`http://${domain}/products/0`);
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download these calls (CSV)" }).click();
  const csv = await readFile((await (await download).path())!, "utf8");
  expect(csv.trim().split("\r\n")).toHaveLength(5);
  expect(csv).toContain("set_cookie");
  await page.getByLabel("Show").selectOption("all");
  await page.getByLabel("URL contains").fill("/PRODUCTS/0");
  await expect(calls.getByRole("row")).toHaveCount(5);
  await expect(calls).not.toContainText(`http://${domain}/products/1`);
  const every = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download every call (CSV)" }).click();
  // Every call of the run, the hits too: each page × 2 user agents × 2 regions, and the header row.
  const everyCall = (await readFile((await (await every).path())!, "utf8")).trim().split("\r\n");
  expect(everyCall).toHaveLength(PAGES * 4 + 1);
  expect(everyCall.filter((line) => line.includes(",hit,CDG,"))).toHaveLength((PAGES - 2) * 4);
  await page.getByLabel("URL contains").fill("");
  await page.getByLabel("Show").selectOption("not_hit");
  await expect(page.getByRole("heading", { name: "Calls per region" })).toBeVisible();
  await shot(page, "run");
});

test("editing a boost changes what was changed, and clearing the schedule stops it", async () => {
  await page.goto(boostUrl);
  await page.getByRole("link", { name: "Edit" }).click();
  await page.getByLabel("Call limit").fill("30");
  await page.getByRole("button", { name: "No schedule" }).click();
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page).toHaveURL(new RegExp(`${boostUrl}$`));
  const settings = page.locator("dl");
  await expect(settings.getByText("30", { exact: true })).toBeVisible();
  await expect(page.getByText("No schedule").first()).toBeVisible();
  // Untouched fields keep their values.
  await expect(settings).toContainText("France (fr), Germany (de)");
  await expect(settings).toContainText("mobile, desktop");
  await expect(settings).toContainText("fr-FR");
});

test("the audit log names the boost, linked to its page, with its id on each entry", async () => {
  await page.goto("/audit");
  const boostId = boostUrl.split("/").at(-1);
  const created = page.getByRole("row").filter({ hasText: "boost.created" });
  await expect(created.getByRole("link", { name: "Nightly products" })).toHaveAttribute("href", boostUrl);
  await expect(created).toContainText(`(boost ${boostId})`);
});

test("an on-demand warm of pasted URLs runs to done", async () => {
  await page.goto(siteUrl);
  await page.getByRole("link", { name: "Warm now" }).click();
  await page.getByLabel("URLs to warm").fill([`http://${domain}/`, `http://${domain}/products/1`, "not a url", "https://elsewhere.example.org/page"].join("\n"));
  // A URL of another site is neither counted nor sent: the form says it leaves it out, and why.
  await expect(page.getByText(/2 of this site found, 5,000 at most\. 1 left out: https:\/\/elsewhere\.example\.org\/page is not on the site's domain/)).toBeVisible();
  await page.getByLabel("United Kingdom (gb)").check();
  await page.getByLabel("bot", { exact: true }).check();
  // 2 URLs × 1 user agent × 2 regions (France is chosen by default).
  await expect(page.getByRole("button", { name: "Warm 4 calls" })).toBeVisible();
  // Two cookie sets and one encoding: 2 URLs × 1 user agent × 2 cookie sets × 1 encoding × 2 regions.
  await page.getByLabel("Cookie sets").fill("USD: currency=USD\nEUR: currency=EUR");
  await page.getByLabel("br", { exact: true }).check();
  await page.getByRole("button", { name: "Warm 8 calls" }).click();
  await expect(page).toHaveURL(/\/runs\/\d+$/);
  await expect(page.getByText("8 of 8 calls").first()).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText("done", { exact: true }).first()).toBeVisible();
  await expect(page.getByTestId("variants-breakdown").getByRole("row")).toHaveCount(3);
});

test("the main pages fit a phone's width", async () => {
  await page.setViewportSize({ width: 375, height: 800 });
  for (const [path, name] of [
    ["/sites", "mobile-sites"],
    [siteUrl, "mobile-site"],
    [boostUrl, "mobile-boost"],
    [runUrl, "mobile-run"],
    ["/keys", "mobile-keys"],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, path).toBeLessThanOrEqual(0);
    await shot(page, name);
  }
  await page.setViewportSize({ width: 1280, height: 720 });
});

test("the report e-mail is in the outbox, rendered", async () => {
  await page.getByRole("link", { name: "Outbox" }).click();
  const report = page.getByRole("link", { name: /Boost "Nightly products" on .*: done/ });
  await expect(report).toBeVisible({ timeout: 30_000 });
  await report.click();
  const email = page.frameLocator('iframe[title="E-mail"]');
  await expect(email.getByText("Success rate:")).toBeVisible();
  await expect(email.getByText("CDG:")).toBeVisible();
  await shot(page, "outbox-report");
});

test("a revoked key is refused by the API at once", async ({ request }) => {
  await page.getByRole("link", { name: "API keys" }).click();
  const row = page.getByTestId("api-key-row").filter({ hasText: "CI" });
  await row.getByRole("button", { name: "Revoke" }).click();
  await row.getByRole("button", { name: "Revoke key" }).click();
  await expect(row).toContainText("revoked");
  const me = await request.get("/v1/me", { headers: { authorization: `Bearer ${apiKey}` } });
  expect(me.status()).toBe(401);
  expect(await me.json()).toEqual({ error: "Invalid or expired API key.", code: "invalid_api_key" });
});

test("a sign-in link, e-mailed to the outbox, signs the owner in on another browser", async ({ browser }) => {
  const context = await browser.newContext();
  const elsewhere = await context.newPage();
  await elsewhere.goto("/signin");
  await elsewhere.getByLabel("E-mail").fill(owner.email);
  await elsewhere.getByRole("button", { name: "E-mail me a sign-in link" }).click();
  await expect(elsewhere.getByRole("heading", { name: "Your sign-in link is in the server's outbox" })).toBeVisible();

  await page.getByRole("link", { name: "Outbox" }).click();
  await page
    .getByRole("link", { name: /^Sign in to Preheat/ })
    .first()
    .click();
  const text = await page.locator("pre").textContent();
  const link = /https?:\/\/\S+\/api\/auth\/callback\/email\S+/.exec(text ?? "")![0]!;
  await elsewhere.goto(link);
  await expect(elsewhere).toHaveURL(/\/sites$/);
  await expect(elsewhere.getByText(owner.email)).toBeVisible();
  // A link works once.
  await (await browser.newContext()).newPage().then(async (third) => {
    await third.goto(link);
    await expect(third).toHaveURL(/\/signin\?error=Verification/);
  });
  await context.close();
});

test("another user cannot open the first user's site by its address", async ({ browser }) => {
  const context = await browser.newContext();
  const other = await context.newPage();
  await signUpAndSignIn(other, { email: `intruder-${Date.now()}@example.com`, password: "another long password" });
  const response = await other.goto(siteUrl);
  expect(response?.status()).toBe(404);
  await expect(other.getByText(domain)).toHaveCount(0);
  const api = await other.request.get(`/api/v1${siteUrl}`, { headers: { "x-preheat-dashboard": "1" } });
  expect(api.status()).toBe(404);
  await context.close();
});

test("signed-out visitors are sent to sign in, and back to the page they asked for", async ({ browser }) => {
  const context = await browser.newContext();
  const visitor = await context.newPage();
  await visitor.goto(runUrl);
  await expect(visitor).toHaveURL(/\/signin\?callbackUrl=%2Fruns%2F\d+$/);
  await visitor.getByLabel("E-mail").fill(owner.email);
  await visitor.getByLabel("Password").fill(owner.password);
  await visitor.getByRole("button", { name: "Sign in" }).click();
  await expect(visitor).toHaveURL(new RegExp(`${runUrl}$`));
  await expect(visitor.getByRole("heading", { name: /Calls per PoP/ })).toBeVisible();
  await context.close();
});

test("the owner changes the password on the Account page: other sessions end, this one goes on", async ({ browser }) => {
  // A session opened before the change, with the old password.
  const before = await browser.newContext();
  const earlier = await before.newPage();
  await earlier.goto("/signin");
  await earlier.getByLabel("E-mail").fill(owner.email);
  await earlier.getByLabel("Password").fill(owner.password);
  await earlier.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(earlier).toHaveURL(/\/sites$/);

  await page.getByRole("link", { name: "Account" }).click();
  await expect(page.getByRole("heading", { name: "Change your password" })).toBeVisible();
  await page.getByLabel("Current password").fill("not the password");
  await page.getByLabel("New password").fill("a newer passphrase");
  await page.getByRole("button", { name: "Change password" }).click();
  // Said once, under the field: no banner repeats it.
  await expect(page.getByLabel("Current password")).toHaveAccessibleDescription("Not right.");
  await expect(page.getByText("The current password is not right.")).toHaveCount(0);
  await page.getByLabel("Current password").fill(owner.password);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Your password is saved." })).toBeVisible();
  await shot(page, "account");

  await earlier.goto("/sites");
  await expect(earlier).toHaveURL(/\/signin/);
  await before.close();
  await page.getByRole("link", { name: "Sites", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Sites", exact: true })).toBeVisible();

  const context = await browser.newContext();
  const elsewhere = await context.newPage();
  await elsewhere.goto("/signin");
  await elsewhere.getByLabel("E-mail").fill(owner.email);
  await elsewhere.getByLabel("Password").fill("a newer passphrase");
  await elsewhere.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(elsewhere).toHaveURL(/\/sites$/);
  await context.close();
});

test("sign out everywhere ends every session, this one too", async ({ browser }) => {
  const context = await browser.newContext();
  const elsewhere = await context.newPage();
  await elsewhere.goto("/signin");
  await elsewhere.getByLabel("E-mail").fill(owner.email);
  await elsewhere.getByLabel("Password").fill("a newer passphrase");
  await elsewhere.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(elsewhere).toHaveURL(/\/sites$/);

  await page.getByRole("link", { name: "Account" }).click();
  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  await page.getByRole("group", { name: "End every session, this one too?" }).getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(page).toHaveURL(/\/signin/);
  await elsewhere.goto("/sites");
  await expect(elsewhere).toHaveURL(/\/signin/);
  await context.close();
});
