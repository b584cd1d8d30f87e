import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sites } from "@/drizzle/schema";
import { estimateBoost } from "@/lib/boosts/estimate";
import { createSiteBoostBody, updateBoostBody } from "@/lib/core/boost-requests";
import { createBoost, getBoost, toBoost, updateBoost } from "@/lib/boosts/service";
import { triggerBoostRun } from "@/lib/boosts/trigger";
import { rowsOf } from "@/lib/db/rows";
import { InvalidError } from "@/lib/core/errors";
import { processSitemap } from "@/lib/sitemaps/process";
import { addSitemap } from "@/lib/sitemaps/service";
import { createSite } from "@/lib/sites/service";
import { type LocalWorld, startLocalWorld } from "@/lib/testing/local-world";
import { runEnded } from "@/lib/testing/run-end";
import { BROWSER_REQUESTS } from "@/lib/warm/user-agents";
import { listRunResults, runResultsCsv } from "./results";
import { getRun } from "./service";
import { warmBody } from "./warm-schemas";
import { queueWarm } from "./warm-runs";

// A staging shop behind Basic auth, whose cache keys pages on a currency cookie and on the
// negotiated encoding (zstd, br, gzip or none), as a Varnish in front of it would.

const PASSWORD = `pw-${randomBytes(12).toString("hex")}`;
const AUTHORIZATION = `Basic ${Buffer.from(`stage:${PASSWORD}`).toString("base64")}`;
type Seen = { host: string; path: string; headers: Record<string, string | string[] | undefined> };
const seen: Seen[] = [];
const cache = new Set<string>();
let world: LocalWorld;

/** What the shop's cache keys on, as a VCL normalising Accept-Encoding would. */
function cacheKey(path: string, headers: Seen["headers"]): string {
  const accept = String(headers["accept-encoding"] ?? "");
  const encoding = ["zstd", "br", "gzip"].find((e) => accept.includes(e)) ?? "none";
  const currency = /(?:^|; )currency=([^;]+)/.exec(String(headers.cookie ?? ""))?.[1] ?? "";
  return `${path}|${currency}|${encoding}`;
}

/** Every log line and console output while the test runs: no password may show up in them. */
const logged: string[] = [];

beforeAll(async () => {
  process.env.PREHEAT_SECRETS_KEY = randomBytes(32).toString("base64");
  process.env.PREHEAT_JOBS_POLL_SECONDS = "0.5";
  const write = process.stdout.write.bind(process.stdout);
  vi.spyOn(process.stdout, "write").mockImplementation((chunk, ...rest) => {
    logged.push(String(chunk));
    return write(chunk, ...(rest as []));
  });
  for (const method of ["log", "info", "warn", "error", "debug"] as const) {
    const original = console[method].bind(console);
    vi.spyOn(console, method).mockImplementation((...args) => {
      logged.push(args.map(String).join(" "));
      original(...args);
    });
  }
  world = await startLocalWorld(
    (req, res) => {
      const host = (req.headers.host ?? "").split(":")[0]!;
      const path = new URL(req.url ?? "/", "http://origin").pathname;
      seen.push({ host, path, headers: req.headers });
      if (path === "/sitemap.xml") {
        const urls = ["/p/0", "/p/1", "/p/2"].map((p) => `<url><loc>http://${host}${p}</loc></url>`).join("");
        return void res.writeHead(200, { "content-type": "application/xml" }).end(`<urlset>${urls}</urlset>`);
      }
      if (host === "elsewhere.test") return void res.writeHead(200, { "cache-control": "public, max-age=60" }).end("elsewhere");
      if (req.headers.authorization !== AUTHORIZATION) return void res.writeHead(401, { "www-authenticate": 'Basic realm="staging"' }).end();
      if (path === "/away") return void res.writeHead(302, { location: "http://elsewhere.test/landing" }).end();
      const key = cacheKey(path, req.headers);
      const hit = cache.has(key);
      cache.add(key);
      res.writeHead(200, { "x-cache": hit ? "HIT" : "MISS", "cache-control": "public, s-maxage=600", "content-type": "text/html" }).end("<p>page</p>");
    },
    { email: "profile@example.com", work: true },
  );
}, 60_000);

afterAll(async () => {
  await world?.stop();
  vi.restoreAllMocks();
  delete process.env.PREHEAT_SECRETS_KEY;
});

async function validatedSite(domain: string) {
  const site = await createSite(world.ctx, { domain });
  await world.handle.db.update(sites).set({ validated: true }).where(eq(sites.id, site.id));
  return site;
}

const profile = {
  headers: { "X-Preview": "1" },
  cookies: { consent: "all" },
  basic_auth: { username: "stage", password: PASSWORD },
  custom_user_agents: ["ShopApp/3.1 (iOS)"],
};
const variations = {
  user_agents: ["desktop", "mobile"],
  cookie_sets: [
    { name: "USD", cookies: { currency: "USD" } },
    { name: "EUR", cookies: { currency: "EUR" } },
  ],
  encodings: ["zstd", "br"],
};

let stagingBoost: number;
let stagingSitemap: number;
let runId: number;

describe("a boost with a request profile, cookie sets and encodings", () => {
  it("makes exactly the calls its estimate counts, per region and per variant, each sending its browser's headers and the profile", async () => {
    const site = await validatedSite("shop.test");
    const sitemap = await addSitemap(world.ctx, site.id, { url: "http://shop.test/sitemap.xml" });
    await processSitemap(world.handle.db, sitemap.id);
    const input = createSiteBoostBody.parse({ name: "Staging", source_type: "sitemap", sitemap_ids: [sitemap.id], region: ["fr", "de"], variations, request_profile: profile });
    const boost = await createBoost(world.ctx, site.id, input);
    stagingBoost = boost.id;
    stagingSitemap = sitemap.id;

    // 3 URLs × (2 classes + 1 custom agent) × 2 cookie sets × 2 encodings × 2 regions.
    const estimate = await estimateBoost(world.ctx, boost.id);
    expect(estimate).toMatchObject({ urls: 3, calls: 72, calls_by_region: { fr: 36, de: 36 } });
    expect(estimate.calls_by_variant).toHaveLength(12);
    expect(estimate.calls_by_variant[0]).toEqual({ user_agent: "desktop", language: null, cookie_set: "USD", encoding: "zstd", calls: 6 });
    expect(estimate.calls_by_variant.at(-1)).toEqual({ user_agent: "ShopApp/3.1 (iOS)", language: null, cookie_set: "EUR", encoding: "br", calls: 6 });

    seen.length = 0;
    const run = await runEnded(world.ctx, (await triggerBoostRun(world.ctx, boost.id)).id);
    runId = run.id;
    expect(run).toMatchObject({ status: "done", progress: { planned_calls: 72, completed_calls: 72 } });
    expect(run.summary).toMatchObject({ total_calls: estimate.calls, successful_calls: 72 });
    expect(Object.fromEntries(run.regions_breakdown.map((r) => [r.region, r.total_calls]))).toEqual(estimate.calls_by_region);
    expect(run.variants_breakdown.map(({ hits: _hits, ...variant }) => variant)).toEqual(estimate.calls_by_variant);

    const calls = seen.filter((s) => s.host === "shop.test" && s.path.startsWith("/p/"));
    expect(calls).toHaveLength(72);
    for (const call of calls) {
      expect(call.headers.authorization).toBe(AUTHORIZATION);
      expect(call.headers["x-preview"]).toBe("1");
      expect(call.headers.cookie).toMatch(/^consent=all; currency=(USD|EUR)$/);
      expect(["zstd", "br"]).toContain(call.headers["accept-encoding"]);
    }
    const byAgent = (ua: string) => calls.filter((c) => c.headers["user-agent"] === ua);
    expect(byAgent(BROWSER_REQUESTS.desktop.userAgent)).toHaveLength(24);
    expect(byAgent(BROWSER_REQUESTS.mobile.userAgent)).toHaveLength(24);
    expect(byAgent("ShopApp/3.1 (iOS)")).toHaveLength(24);
    // Chromium sends its client hints and Fetch Metadata; Safari and a custom agent no client hints.
    expect(byAgent(BROWSER_REQUESTS.desktop.userAgent).every((c) => c.headers["sec-ch-ua-platform"] === '"Windows"' && c.headers["sec-fetch-mode"] === "navigate")).toBe(true);
    expect(calls.filter((c) => c.headers["user-agent"] !== BROWSER_REQUESTS.desktop.userAgent).some((c) => c.headers["sec-ch-ua"])).toBe(false);

    // Each cache object was filled once (a miss), then hit by the other agents and regions.
    expect(run.summary.cache_hits).toBe(72 - 12);
    expect(run.variants_breakdown.reduce((n, v) => n + v.hits, 0)).toBe(60);
  });

  it("leaves the cache holding what real visitors ask for: Chrome's zstd and Safari's br, in each currency", () => {
    for (const browser of [BROWSER_REQUESTS.desktop, BROWSER_REQUESTS.mobile])
      for (const currency of ["USD", "EUR"])
        for (const path of ["/p/0", "/p/1", "/p/2"]) expect(cache.has(cacheKey(path, { ...browser.headers, cookie: `consent=all; currency=${currency}` }))).toBe(true);
  });

  it("names each result row's cookie set and encoding, in the JSON and the CSV", async () => {
    const results = await listRunResults(world.ctx, runId, {}, { limit: 100, offset: 0 });
    expect(results.total).toBe(12);
    expect(new Set(results.data.map((r) => `${r.cookie_set}/${r.encoding}`))).toEqual(new Set(["USD/zstd", "USD/br", "EUR/zstd", "EUR/br"]));
    const csv = await new Response(await runResultsCsv(world.ctx, runId, {})).text();
    const [header, first] = csv.trim().split("\r\n");
    const columns = header!.split(",");
    const cells = first!.split(",");
    expect([cells[columns.indexOf("cookie_set")], cells[columns.indexOf("encoding")]]).toEqual([results.data[0]!.cookie_set, results.data[0]!.encoding]);
  });

  it("keeps the stored password when an update leaves it out, and refuses a Basic auth without one", async () => {
    const [site] = await world.handle.db.select().from(sites).where(eq(sites.domain, "shop.test"));
    const boost = await createBoost(world.ctx, site!.id, createSiteBoostBody.parse({ name: "Kept", source_type: "sitemap", sitemap_ids: [stagingSitemap], region: ["fr"], request_profile: profile }));
    const updated = await updateBoost(world.ctx, boost.id, updateBoostBody.parse({ request_profile: { basic_auth: { username: "stage2" }, cookies: { consent: "none" } } }));
    expect(toBoost(updated).request_profile).toEqual({ cookies: { consent: "none" }, basic_auth: { username: "stage2", password_set: true } });
    expect(updated.requestProfile?.basic_auth?.password_encrypted).toBe(boost.requestProfile?.basic_auth?.password_encrypted);
    const cleared = await updateBoost(world.ctx, boost.id, updateBoostBody.parse({ request_profile: null }));
    expect(cleared.requestProfile).toBeNull();
    await expect(updateBoost(world.ctx, boost.id, updateBoostBody.parse({ request_profile: { basic_auth: { username: "stage" } } }))).rejects.toThrow(
      "request_profile.basic_auth.password: is required.",
    );
  });
});

describe("an on-demand warm with Basic auth", () => {
  it("sends the credentials to the site's host only: a redirect to another host gets neither them nor the profile's cookies", async () => {
    const site = await validatedSite("redirecting.test");
    seen.length = 0;
    const input = warmBody.parse({ urls: ["http://redirecting.test/away"], region: ["fr"], request_profile: { basic_auth: { username: "stage", password: PASSWORD }, cookies: { consent: "all" } } });
    const { run } = await queueWarm(world.ctx, site.id, input);
    const done = await runEnded(world.ctx, run.id);
    expect(done.summary.total_calls).toBe(1);
    const first = seen.find((s) => s.host === "redirecting.test");
    const landing = seen.find((s) => s.host === "elsewhere.test");
    expect(first?.headers).toMatchObject({ authorization: AUTHORIZATION, cookie: "consent=all" });
    expect(landing).toBeDefined();
    expect(landing!.headers.authorization).toBeUndefined();
    expect(landing!.headers.cookie).toBeUndefined();
    expect(done.request_profile).toEqual({ cookies: { consent: "all" }, basic_auth: { username: "stage", password_set: true } });
  });

  it("is refused with a 422 that says why when the server has no PREHEAT_SECRETS_KEY", async () => {
    const site = await validatedSite("nokey.test");
    const key = process.env.PREHEAT_SECRETS_KEY;
    delete process.env.PREHEAT_SECRETS_KEY;
    try {
      const input = warmBody.parse({ urls: ["http://nokey.test/"], request_profile: { basic_auth: { username: "stage", password: PASSWORD } } });
      const refused = queueWarm(world.ctx, site.id, input);
      await expect(refused).rejects.toThrow(InvalidError);
      await expect(refused).rejects.toThrow("request_profile.basic_auth: cannot be stored: this server has no PREHEAT_SECRETS_KEY");
    } finally {
      process.env.PREHEAT_SECRETS_KEY = key;
    }
  });
});

describe("the Basic auth password", () => {
  it("is in no table nor log line in clear after runs with it, and in no answer", async () => {
    const tables = rowsOf<{ name: string }>(await world.handle.db.execute(sql`select table_name as name from information_schema.tables where table_schema = 'public'`));
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(["boosts", "runs", "run_batches", "run_results"]));
    let sealed = 0;
    for (const { name } of tables) {
      const rows = rowsOf<{ row: string }>(await world.handle.db.execute(sql`select t::text as row from ${sql.identifier(name)} t`));
      for (const { row } of rows) {
        expect(row, `a row of ${name}`).not.toContain(PASSWORD);
        expect(row).not.toContain(AUTHORIZATION.slice(6));
        if (row.includes("password_encrypted")) sealed++;
      }
    }
    expect(sealed).toBeGreaterThan(0);
    expect(logged.join("\n")).not.toContain(PASSWORD);
    expect(logged.join("\n")).not.toContain(AUTHORIZATION.slice(6));
    const answers = JSON.stringify([toBoost(await getBoost(world.ctx, stagingBoost)), await getRun(world.ctx, runId)]);
    expect(answers).not.toContain(PASSWORD);
    expect(answers).not.toContain("password_encrypted");
    expect(answers).toContain('"password_set":true');
  });
});
