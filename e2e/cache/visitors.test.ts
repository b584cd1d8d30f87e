import { afterEach, describe, expect, inject, it } from "vitest";
import { api, createSite, newKey, serveSite } from "@/app/api/v1/__tests__/support/api";
import { startVarnish, type Varnish } from "@/lib/testing/varnish";
import { type CacheProfile, vclFor } from "./vcl";
import { hitRatio, type VisitResult, visit, visitorMix } from "./visitors";

// What a warm does for visitors, measured where they meet it: a real cache (Varnish) keyed as real
// sites key their caches, in front of a local origin. A site owner configures a warm with the
// options Preheat offers for that kind of site; then the visitor mix asks the cache
// directly, and at least 95 % of their requests must be hits.

const cachePorts = inject("cachePorts");
const originPort = Number(new URL(inject("originUrl")).port);
const PAGES = Array.from({ length: 10 }, (_, i) => `/products/${i + 1}`);
const AGENTS = ["desktop", "mobile", "bot"];

let varnish: Varnish | undefined;
afterEach(async () => {
  await varnish?.stop();
  varnish = undefined;
});

/** The site at `host`, its pages cacheable (varying on `vary`), its cache started with `profile` once the profile's secret is known, and its ownership proven. */
async function siteBehindCache(key: string, host: string, vary: string | null, profile: (site: { verification_secret?: string }) => CacheProfile, pages = PAGES) {
  const site = await createSite(key, host);
  const page = { body: "<html><body>product</body></html>", headers: { "cache-control": "public, max-age=3600", ...(vary ? { vary } : {}) } };
  await serveSite(host, { routes: { [`/${site.validation_token}.html`]: { body: site.validation_token }, ...Object.fromEntries(pages.map((p) => [p, page])) } });
  const full = (await api("GET", `/v1/sites/${site.id}`, { key })).body;
  varnish = await startVarnish(cachePorts[host]!, vclFor(profile(full), originPort));
  const validated = await api("POST", `/v1/sites/${site.id}/validate`, { key });
  expect(validated.status, JSON.stringify(validated.body)).toBe(200);
  return site;
}

async function warmAndWait(key: string, siteId: number, host: string, body: Record<string, unknown>, pages = PAGES) {
  const queued = await api("POST", `/v1/sites/${siteId}/warm`, { key, body: { urls: pages.map((p) => `http://${host}${p}`), region: ["fr"], ...body } });
  expect(queued.status, JSON.stringify(queued.body)).toBe(202);
  await expect.poll(async () => (await api("GET", `/v1/runs/${queued.body.run_id}`, { key })).body.status, { timeout: 90_000, interval: 500 }).toMatch(/^(done|failed|paused)$/);
  return (await api("GET", `/v1/runs/${queued.body.run_id}`, { key })).body;
}

function expectMostlyHits(results: VisitResult[]) {
  const { ratio, missed } = hitRatio(results);
  console.info(`${expect.getState().currentTestName}: visitors' hit ratio ${ratio.toFixed(2)}`);
  expect(ratio, `hit ratio ${ratio}; missed: ${JSON.stringify(missed)}`).toBeGreaterThanOrEqual(0.95);
}

describe("visitors find the cache warm", () => {
  it("on a site keyed on device class and Vary: Accept-Language", async () => {
    const key = await newKey();
    const host = "languages.cache.test";
    const site = await siteBehindCache(key, host, "Accept-Language", () => ({ kind: "languages" }));
    const run = await warmAndWait(key, site.id, host, { variations: { user_agents: AGENTS, languages: ["en-US", "fr-FR"] } });
    expect(run.status).toBe("done");
    expectMostlyHits(await visit(cachePorts[host]!, host, PAGES, visitorMix()));
  }, 180_000);

  it("on a shop keyed on a currency cookie, warmed with cookie sets", async () => {
    const key = await newKey();
    const host = "currency.cache.test";
    const site = await siteBehindCache(key, host, null, () => ({ kind: "currency" }));
    const cookie_sets = ["EUR", "USD", "GBP"].map((currency) => ({ name: currency, cookies: { currency } }));
    const run = await warmAndWait(key, site.id, host, { variations: { user_agents: AGENTS, cookie_sets } });
    expect(run.status).toBe("done");
    // 40 % EUR, 30 % USD, 20 % GBP, 10 % without the cookie (the shop's default, EUR), each with a session cookie beside it.
    const currencyOf = (i: number) => ["EUR", "EUR", "EUR", "EUR", "USD", "USD", "USD", "GBP", "GBP", null][i % 10];
    const results = await visit(cachePorts[host]!, host, PAGES, visitorMix(), (i) => ({ cookie: [currencyOf(i) && `currency=${currencyOf(i)}`, `session=v${i}`].filter(Boolean).join("; ") }));
    expectMostlyHits(results);
  }, 180_000);

  it("on a cache keyed on the negotiated encoding (zstd, br, gzip, none), warmed with encodings", async () => {
    const key = await newKey();
    const host = "encodings.cache.test";
    const site = await siteBehindCache(key, host, "Accept-Encoding", () => ({ kind: "encodings" }));
    const run = await warmAndWait(key, site.id, host, { variations: { user_agents: AGENTS, encodings: ["zstd", "br", "gzip", "identity"] } });
    expect(run.status).toBe("done");
    expectMostlyHits(await visit(cachePorts[host]!, host, PAGES, visitorMix()));
  }, 180_000);

  it("on a staging site behind Basic auth, warmed with its credentials", async () => {
    const key = await newKey();
    const host = "staging.cache.test";
    const authorization = `Basic ${Buffer.from("preview:s3cret-staging").toString("base64")}`;
    const site = await siteBehindCache(key, host, null, () => ({ kind: "staging", authorization }));
    const run = await warmAndWait(key, site.id, host, { variations: { user_agents: AGENTS }, basic_auth: { username: "preview", password: "s3cret-staging" } });
    expect(run.status).toBe("done");
    expectMostlyHits(await visit(cachePorts[host]!, host, PAGES, visitorMix(), () => ({ authorization })));
  }, 180_000);

  it("behind bot protection that challenges unverified crawlers, through the site's verification header", async () => {
    const key = await newKey();
    const host = "firewall.cache.test";
    const site = await siteBehindCache(key, host, null, (full) => ({ kind: "firewall", verification: String(full.verification_secret) }));
    const run = await warmAndWait(key, site.id, host, { variations: { user_agents: AGENTS } });
    expect(run.status).toBe("done");
    expectMostlyHits(await visit(cachePorts[host]!, host, PAGES, visitorMix()));
  }, 180_000);
});

describe("the visitor check", () => {
  it("names the visitor the warm left cold and why, on a cache keyed on the negotiated encoding warmed without encodings", async () => {
    const key = await newKey();
    const host = "check.cache.test";
    const pages = Array.from({ length: 50 }, (_, i) => `/products/${i + 1}`);
    const site = await siteBehindCache(key, host, "Accept-Encoding", () => ({ kind: "encodings" }), pages);
    const run = await warmAndWait(key, site.id, host, { variations: { user_agents: AGENTS }, verify: "visitors" }, pages);
    expect(run.status).toBe("done");
    expect(run.summary.total_calls).toBe(150);
    const byProfile = Object.fromEntries(run.summary.visitors.map((v: { profile: string }) => [v.profile, v]));
    console.info(`visitor check: ${JSON.stringify(run.summary.visitors)}`);
    // Chrome on Android is a mobile asking for zstd; the warm's mobile calls (Safari) asked for br. The others asked as the warm did.
    expect(byProfile.chrome_android).toMatchObject({ requests: 10, hits: 0, cause: expect.stringContaining("Chrome Android asks for zstd, which was not warmed") });
    for (const profile of ["chrome_desktop", "safari_ios", "firefox", "googlebot_smartphone"]) expect(byProfile[profile]).toMatchObject({ requests: 10, hits: 10, cause: null });
    expect(run.summary.advice).toContainEqual({ code: "visitors_missed", message: expect.stringMatching(/^Chrome Android visitors missed on 10 of 10: .*add "zstd" to variations\.encodings\.$/) });
  }, 180_000);
});

describe("a site whose bot protection does not let Preheat through", () => {
  it("ends the run failed, naming the vendor, after at most 30 calls", async () => {
    const key = await newKey();
    const host = "blocked.cache.test";
    const site = await siteBehindCache(key, host, null, () => ({ kind: "firewall", verification: "a rule the owner has not set up" }));
    const many = Array.from({ length: 60 }, (_, i) => `http://${host}/products/${i + 1}`);
    const queued = await api("POST", `/v1/sites/${site.id}/warm`, { key, body: { urls: many, region: ["fr"], variations: { user_agents: ["bot"] } } });
    expect(queued.status).toBe(202);
    await expect.poll(async () => (await api("GET", `/v1/runs/${queued.body.run_id}`, { key })).body.status, { timeout: 90_000, interval: 500 }).toBe("failed");
    const run = (await api("GET", `/v1/runs/${queued.body.run_id}`, { key })).body;
    expect(run.status_message).toContain("Cloudflare");
    expect(run.summary.total_calls).toBeLessThanOrEqual(30);
  }, 180_000);
});
