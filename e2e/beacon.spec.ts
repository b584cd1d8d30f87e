import { expect, type Page, test } from "@playwright/test";
import { freePort } from "../lib/testing/ports";
import { startVarnish, type Varnish } from "../lib/testing/varnish";
import { signUpAndSignIn } from "./support/emails";
import { e2ePorts, originUrl } from "./support/ports";

/**
 * The beacon end to end: an owner takes the tag from the site page's Visitors panel; the site's pages
 * carry it, served through a real Varnish whose VCL adds `Server-Timing: cache;desc=HIT|MISS` (as
 * docs/guide/site-owners/beacon.md recommends); Chromium opens them as a visitor; the beacon reports each view, and the
 * field figures equal what the cache served, as its own X-Cache told each navigation.
 *
 * The site's domain is under `.localhost`: Chromium resolves it to the loopback itself (and the
 * resolver rule below makes sure of 127.0.0.1), and treats its pages as a secure context, where
 * browsers expose Server-Timing to the page. Nothing leaves 127.0.0.1.
 */
test.describe.configure({ mode: "serial" });
test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
      "--host-resolver-rules=MAP *.localhost 127.0.0.1",
    ],
  },
});

const owner = { email: `beacon-${Date.now()}@example.com`, password: "correct horse battery" };
const domain = `beacon-${Date.now().toString(36)}.localhost`;

/** The VCL of docs/guide/site-owners/beacon.md's Varnish section, plus X-Cache for the test's own count and no caching in the browser. */
const vcl = (originPort: number) => `vcl 4.1;

backend origin {
  .host = "127.0.0.1";
  .port = "${originPort}";
}

sub vcl_deliver {
  if (obj.hits > 0) {
    set resp.http.Server-Timing = "cache;desc=HIT";
    set resp.http.X-Cache = "HIT";
  } else {
    set resp.http.Server-Timing = "cache;desc=MISS";
    set resp.http.X-Cache = "MISS";
  }
  # Every navigation must reach the cache: the browser keeps no copy.
  set resp.http.Cache-Control = "no-store";
}
`;

let varnish: Varnish;
let page: Page;
let siteId = 0;
let tag = "";

test.beforeAll(async ({ browser }) => {
  varnish = await startVarnish(await freePort(), vcl(e2ePorts.origin));
  page = await browser.newPage();
});
test.afterAll(async () => {
  await page?.close();
  await varnish?.stop();
});

test("the site page's Visitors panel explains how to install the beacon and gives its tag", async () => {
  await signUpAndSignIn(page, owner);
  await page.getByLabel("Domain").fill(domain);
  await page.getByRole("button", { name: "Add site" }).click();
  await expect(page.getByRole("heading", { name: domain })).toBeVisible();
  siteId = Number(/\/sites\/(\d+)/.exec(page.url())?.[1]);
  expect(siteId).toBeGreaterThan(0);

  await expect(page.getByRole("heading", { name: "Visitors (field data)" })).toBeVisible();
  await expect(page.getByTestId("field-empty")).toContainText("No page view reported");
  tag = (await page.getByTestId("beacon-tag").textContent()) ?? "";
  expect(tag).toMatch(new RegExp(`^<script async src="http://127\\.0\\.0\\.1:${e2ePorts.app}/beacon\\.js" data-site="[0-9a-f]{20}"></script>$`));
  await expect(page.getByRole("button", { name: "Copy the tag" })).toBeVisible();
  await expect(page.getByRole("link", { name: /How the beacon works/ })).toHaveAttribute("href", "/docs/site-owners/beacon");
});

test("Chromium opens the site's pages through Varnish; the field figures equal what the cache served", async ({ browser }) => {
  const html = (title: string) => `<!doctype html><html><head><title>${title}</title>${tag}</head><body><h1>${title}</h1></body></html>`;
  const cacheable = { "cache-control": "public, s-maxage=3600" };
  const response = await fetch(`${originUrl}/__origin/hosts/${encodeURIComponent(domain)}`, {
    method: "PUT",
    body: JSON.stringify({ routes: { "/": { body: html("Home"), headers: cacheable }, "/shoes": { body: html("Shoes"), headers: cacheable }, "/hats": { body: html("Hats"), headers: cacheable } } }),
  });
  expect(response.status).toBe(204);

  // A visitor's browser of its own: no session, nothing shared with the owner's.
  const visitor = await browser.newContext();
  const tab = await visitor.newPage();
  const seen = { HIT: 0, MISS: 0 };
  const paths = ["/", "/", "/shoes", "/", "/shoes", "/hats", "/"];
  for (const path of paths) {
    const sent = tab.waitForRequest((request) => request.url() === `http://127.0.0.1:${e2ePorts.app}/b` && request.method() === "POST");
    const navigation = await tab.goto(`http://${domain}:${varnish.port}${path}`);
    expect(navigation?.status()).toBe(200);
    const verdict = navigation!.headers()["x-cache"] as "HIT" | "MISS";
    expect(["HIT", "MISS"]).toContain(verdict);
    seen[verdict]++;
    const post = await sent;
    const body = JSON.parse(post.postData() ?? "{}");
    expect(body).toMatchObject({ p: path, d: "d", s: [["cache", verdict]] });
    expect(body.t).toBeGreaterThanOrEqual(0);
    // What is sent and nothing else.
    expect(Object.keys(body).sort()).toEqual(["d", "k", "p", "s", "t"]);
  }
  // The first view of each page was a miss, every other a hit.
  expect(seen).toEqual({ HIT: 4, MISS: 3 });
  await visitor.close();

  // A beacon is sent without waiting for its answer (the browser may report it after the page is gone): the server's count says when all arrived.
  const read = async () => (await page.request.get(`/api/v1/sites/${siteId}/field`, { headers: { "x-preheat-dashboard": "1" } })).json();
  await expect.poll(async () => (await read()).totals.views).toBe(paths.length);
  const figures = await read();
  expect(figures.totals).toMatchObject({ views: paths.length, hits: seen.HIT, misses: seen.MISS, unknown: 0, hit_ratio: seen.HIT / (seen.HIT + seen.MISS) });
  expect(figures.totals.ttfb_p50_ms).not.toBeNull();
  expect(figures.devices).toMatchObject([{ device: "desktop", views: paths.length, hits: seen.HIT, misses: seen.MISS }]);
  expect(figures.hours.reduce((n: number, hour: { views: number }) => n + hour.views, 0)).toBe(paths.length);

  // The panel shows them.
  await page.reload();
  const totals = page.getByTestId("field-totals");
  await expect(totals).toContainText(`${Math.round((seen.HIT / (seen.HIT + seen.MISS)) * 1000) / 10} %`);
  await expect(totals).toContainText(`${paths.length}`);
  await expect(page.getByRole("table", { name: "By device" })).toContainText("desktop");

  // On a phone, in the dark theme, the panel fits the page's width (its tables scroll inside it). The
  // other panels are hidden while it is measured: only this one's width is this test's.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: "dark" });
  const panel = page.locator("section", { has: page.getByRole("heading", { name: "Visitors (field data)" }) });
  await panel.evaluate((mine) => {
    for (const section of document.querySelectorAll("main section")) if (section !== mine) (section as HTMLElement).style.display = "none";
  });
  await panel.scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await panel.evaluate((section) => [...section.querySelectorAll("*")].filter((element) => element.getBoundingClientRect().right > 391 && !element.closest(".table-scroll")).length)).toBe(0);
  await page.screenshot({ path: "test-results/screenshots/field-panel-390-dark.png", fullPage: false });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: "light" });
});

test("a visitor with Global Privacy Control or Do Not Track sends nothing", async ({ browser }) => {
  const before = await (await page.request.get(`/api/v1/sites/${siteId}/field`, { headers: { "x-preheat-dashboard": "1" } })).json();
  for (const signal of ["Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true })", "Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1' })"]) {
    const visitor = await browser.newContext();
    await visitor.addInitScript(signal);
    const tab = await visitor.newPage();
    const posts: string[] = [];
    tab.on("request", (request) => {
      if (request.url().endsWith("/b")) posts.push(request.url());
    });
    await tab.goto(`http://${domain}:${varnish.port}/`);
    await tab.waitForLoadState("networkidle");
    expect(posts, signal).toEqual([]);
    await visitor.close();
  }
  const after = await (await page.request.get(`/api/v1/sites/${siteId}/field`, { headers: { "x-preheat-dashboard": "1" } })).json();
  expect(after.totals.views).toBe(before.totals.views);
});
