import { gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { api, createSite, createValidatedSite, endedRun, newKey, originLog, serveSite, uniqueEmail } from "./support/api";

// Traffic sources and the popularity table through the server (issue 59): an access log uploaded as
// an integrator would (curl --data-binary), Plausible and GA4 read from local stand-ins answering as
// their APIs document (PREHEAT_PLAUSIBLE_BASE_URL, PREHEAT_GA4_BASE_URL, PREHEAT_GOOGLE_TOKEN_URL in
// support/global-setup.ts), then boosts that spend their calls where the visits are.

let key: string;
let reader: string;
beforeAll(async () => {
  const email = uniqueEmail();
  key = await newKey("all", email);
  reader = await newKey("sites:read", email);
});

/** A line as nginx's default `combined` format writes it. */
const combined = (path: string, { status = 200, method = "GET", agent = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", day = "28/Nov/2026" } = {}) =>
  `203.0.113.7 - - [${day}:10:15:32 +0000] "${method} ${path} HTTP/1.1" ${status} 5120 "-" "${agent}"`;

/** A log in which /popular is visited most, then /second, /third; with lines that must not count. */
function sampleLog(): string {
  return [
    ...Array.from({ length: 30 }, () => combined("/popular")),
    ...Array.from({ length: 20 }, () => combined("/second?utm_source=news")),
    ...Array.from({ length: 10 }, () => combined("/third")),
    combined("/assets/app.css"),
    combined("/popular", { method: "HEAD" }),
    combined("/missing", { status: 404 }),
    combined("/popular", { agent: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" }),
    "this line is not a log line",
  ].join("\n");
}

async function uploadSource(siteId: number) {
  const created = await api("POST", `/v1/sites/${siteId}/traffic-sources`, { key, body: { kind: "access_log", name: "nginx" } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body as { id: number };
}

const upload = (siteId: number, sourceId: number, body: string | Uint8Array, headers: Record<string, string> = {}) =>
  api("POST", `/v1/sites/${siteId}/traffic-sources/${sourceId}/upload`, { key, rawBody: body, headers: { "content-type": "application/octet-stream", ...headers } });

async function settled(siteId: number, sourceId: number) {
  for (let i = 0; i < 100; i++) {
    const source = await api("GET", `/v1/sites/${siteId}/traffic-sources/${sourceId}`, { key });
    if (source.body.status !== "reading") return source.body;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`source ${sourceId} is still reading`);
}

const ended = (runId: number) => endedRun(key, runId);

describe("an uploaded access log", () => {
  it("counts successful GETs of pages by people, and lists the pages most visited first, by source", async () => {
    const site = await createSite(key);
    const source = await uploadSource(site.id);
    expect(source).toMatchObject({ kind: "access_log", name: "nginx", status: "never", read_every_hours: null, next_read_at: null, counts: null });
    const uploaded = await upload(site.id, source.id, sampleLog());
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    expect(uploaded.body).toMatchObject({ status: "ok", latest_day: "2026-11-28" });
    expect(uploaded.body.counts).toMatchObject({ counted: 60, broken: 1, paths: 3, skipped: { method: 1, status: 1, asset: 1, bot: 1 } });
    expect(uploaded.body.message).toMatch(/1 of 65 lines could not be read/);

    const table = await api("GET", `/v1/sites/${site.id}/traffic`, { key: reader });
    expect(table.status).toBe(200);
    expect(table.body).toMatchObject({ total: 3, total_visits: 60, days: 30, limit: 20, offset: 0 });
    // The query of /second is a tracking tag its sitemap does not keep: the visits count for the bare path.
    expect(table.body.data.map((row: { path: string; visits: number }) => [row.path, row.visits])).toEqual([
      ["/popular", 30],
      ["/second", 20],
      ["/third", 10],
    ]);
    expect(table.body.data[0]).toEqual({ path: "/popular", url: `https://${site.domain}/popular`, visits: 30, sources: [{ source_id: source.id, kind: "access_log", visits: 30 }] });

    const page = await api("GET", `/v1/sites/${site.id}/traffic?limit=1&offset=1`, { key });
    expect(page.body.data.map((row: { path: string }) => row.path)).toEqual(["/second"]);

    const csv = await api("GET", `/v1/sites/${site.id}/traffic?format=csv`, { key });
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(String(csv.body).trim().split("\r\n")).toEqual([
      `path,url,visits,access_log ${source.id},beacon`,
      `/popular,https://${site.domain}/popular,30,30,0`,
      `/second,https://${site.domain}/second,20,20,0`,
      `/third,https://${site.domain}/third,10,10,0`,
    ]);
  });

  it("takes gzip, and counts a log uploaded twice once", async () => {
    const site = await createSite(key);
    const source = await uploadSource(site.id);
    expect((await upload(site.id, source.id, gzipSync(sampleLog()))).body.counts).toMatchObject({ counted: 60 });
    expect((await upload(site.id, source.id, sampleLog())).status).toBe(200);
    expect((await api("GET", `/v1/sites/${site.id}/traffic`, { key })).body.total_visits).toBe(60);
  });

  it("refuses a file nothing can be read from with 422, storing nothing, and a form upload with 415", async () => {
    const site = await createSite(key);
    const source = await uploadSource(site.id);
    await upload(site.id, source.id, sampleLog());
    const refused = await upload(site.id, source.id, "\u0000\u0001 not a log\nnor this\n");
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe("unreadable_log");
    const form = await upload(site.id, source.id, "--x\r\n", { "content-type": "multipart/form-data; boundary=x" });
    expect(form.status).toBe(415);
    const kept = await api("GET", `/v1/sites/${site.id}/traffic-sources/${source.id}`, { key });
    expect(kept.body).toMatchObject({ status: "ok", counts: { counted: 60 } });
    expect((await api("GET", `/v1/sites/${site.id}/traffic`, { key })).body.total_visits).toBe(60);
  });

  it("refuses a log over PREHEAT_TRAFFIC_UPLOAD_MAX_BYTES with 413", async () => {
    const site = await createSite(key);
    const source = await uploadSource(site.id);
    const line = `${combined("/page")}\n`;
    const refused = await upload(site.id, source.id, line.repeat(Math.ceil((9 * 1024 * 1024) / line.length)));
    expect(refused.status).toBe(413);
    expect((await api("GET", `/v1/sites/${site.id}/traffic-sources/${source.id}`, { key })).body.status).toBe("never");
  });

  it("keeps a query string where the site's sitemap lists the path with one", async () => {
    const site = await createValidatedSite(key);
    const base = `http://${site.domain}`;
    await serveSite(site.domain, {
      routes: {
        [`/${site.validation_token}.html`]: { body: site.validation_token },
        "/sitemap.xml": {
          body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${base}/search?q=shoes</loc></url></urlset>`,
          headers: { "content-type": "application/xml" },
        },
      },
    });
    const sitemap = await api("POST", `/v1/sites/${site.id}/sitemaps`, { key, body: { url: `${base}/sitemap.xml` } });
    for (let i = 0; i < 100 && !["done", "error"].includes((await api("GET", `/v1/sites/${site.id}/sitemaps/${sitemap.body.id}`, { key })).body.status); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const source = await uploadSource(site.id);
    await upload(site.id, source.id, [combined("/search?q=shoes"), combined("/search?q=shoes"), combined("/about?ref=x")].join("\n"));
    const rows = (await api("GET", `/v1/sites/${site.id}/traffic`, { key })).body.data.map((row: { path: string; visits: number }) => [row.path, row.visits]);
    expect(rows).toEqual([
      ["/search?q=shoes", 2],
      ["/about", 1],
    ]);
  });

  it("answers 404 for another account's source, 409 for a read without a URL, and checks the body", async () => {
    const site = await createSite(key);
    const source = await uploadSource(site.id);
    const stranger = await newKey();
    expect((await api("GET", `/v1/sites/${site.id}/traffic-sources/${source.id}`, { key: stranger })).status).toBe(404);
    const read = await api("POST", `/v1/sites/${site.id}/traffic-sources/${source.id}/read`, { key });
    expect(read.status).toBe(409);
    expect(read.body.code).toBe("upload_only_source");
    for (const bad of [{ kind: "nginx" }, { kind: "plausible", site_id: "example.com" }, { kind: "ga4", property_id: "12a", service_account_key: "{}" }, { kind: "access_log", url: "ftp://x/y" }]) {
      const refused = await api("POST", `/v1/sites/${site.id}/traffic-sources`, { key, body: bad });
      expect(refused.status, JSON.stringify(bad)).toBe(422);
    }
    const notAKey = await api("POST", `/v1/sites/${site.id}/traffic-sources`, { key, body: { kind: "ga4", property_id: "123", service_account_key: '{"type":"authorized_user"}' } });
    expect(notAKey.status).toBe(422);
    expect(notAKey.body.details[0].field).toBe("service_account_key");
    expect((await api("GET", `/v1/sites/${site.id}/traffic-sources`, { key })).body.data).toHaveLength(1);
    expect((await api("DELETE", `/v1/sites/${site.id}/traffic-sources/${source.id}`, { key })).status).toBe(204);
    expect((await api("GET", `/v1/sites/${site.id}/traffic-sources`, { key })).body.data).toHaveLength(0);
  });
});

describe("a log fetched from its URL", () => {
  it("is read at once and on demand, and a URL that answers an error fails the read, keeping the visits", async () => {
    const site = await createSite(key);
    await serveSite(site.domain, { routes: { "/logs/access.log": { body: sampleLog(), headers: { "content-type": "text/plain" } } } });
    const created = await api("POST", `/v1/sites/${site.id}/traffic-sources`, { key, body: { kind: "access_log", url: `http://${site.domain}/logs/access.log`, read_every_hours: 12 } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ status: "reading", read_every_hours: 12, settings: { url: `http://${site.domain}/logs/access.log` } });
    expect(await settled(site.id, created.body.id)).toMatchObject({ status: "ok", counts: { counted: 60, broken: 1 } });

    await serveSite(site.domain, { routes: { "/logs/access.log": { status: 404, body: "gone" } } });
    expect((await api("POST", `/v1/sites/${site.id}/traffic-sources/${created.body.id}/read`, { key })).status).toBe(202);
    const failed = await settled(site.id, created.body.id);
    expect(failed).toMatchObject({ status: "failed", counts: { counted: 60 } });
    expect(failed.message).toMatch(/answered 404/);
    expect((await api("GET", `/v1/sites/${site.id}/traffic`, { key })).body.total_visits).toBe(60);
  });
});

describe("analytics sources", () => {
  it("reads Plausible's pageviews per page, keeps the key sealed, and says why a read failed", async () => {
    const site = await createSite(key);
    await serveSite("plausible.test", {
      routes: {
        "/api/v2/query": {
          body: JSON.stringify({
            results: [
              { metrics: [900], dimensions: ["/"] },
              { metrics: [120], dimensions: ["/pricing"] },
            ],
            meta: {},
            query: { site_id: site.domain },
          }),
          headers: { "content-type": "application/json" },
        },
      },
    });
    const created = await api("POST", `/v1/sites/${site.id}/traffic-sources`, { key, body: { kind: "plausible", site_id: site.domain, api_key: "plausible-secret-key" } });
    expect(created.status).toBe(201);
    expect(JSON.stringify(created.body)).not.toContain("plausible-secret-key");
    expect(created.body).toMatchObject({ status: "reading", read_every_hours: 24, settings: { site_id: site.domain } });
    const read = await settled(site.id, created.body.id);
    expect(read).toMatchObject({ status: "ok", counts: { lines: 2, counted: 1020, paths: 2 } });
    expect((await api("GET", `/v1/sites/${site.id}/traffic`, { key })).body.data[0]).toMatchObject({ path: "/", visits: 900, sources: [{ kind: "plausible", visits: 900 }] });

    // The key is refused now: the read fails, says why, and the visits of the read before stay.
    await serveSite("plausible.test", { routes: { "/api/v2/query": { status: 401, body: JSON.stringify({ error: "Invalid API key or site ID" }), headers: { "content-type": "application/json" } } } });
    expect((await api("POST", `/v1/sites/${site.id}/traffic-sources/${created.body.id}/read`, { key })).status).toBe(202);
    const failed = await settled(site.id, created.body.id);
    expect(failed.status).toBe("failed");
    expect(failed.message).toMatch(/key/i);
    expect((await api("GET", `/v1/sites/${site.id}/traffic`, { key })).body.total_visits).toBe(1020);
  });

  it("reads GA4's screenPageViews per pagePath with a service account", async () => {
    const site = await createSite(key);
    const { generateKeyPairSync } = await import("node:crypto");
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const serviceAccount = {
      type: "service_account",
      project_id: "preheat-test",
      private_key_id: "abc",
      private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      client_email: "reader@preheat-test.iam.gserviceaccount.com",
      token_uri: "https://oauth2.googleapis.com/token",
    };
    await serveSite("google-oauth.test", {
      routes: { "/token": { body: JSON.stringify({ access_token: "ya29.test", expires_in: 3599, token_type: "Bearer" }), headers: { "content-type": "application/json" } } },
    });
    await serveSite("ga4.test", {
      routes: {
        "/v1beta/properties/123456:runReport": {
          body: JSON.stringify({
            dimensionHeaders: [{ name: "pagePath" }],
            metricHeaders: [{ name: "screenPageViews", type: "TYPE_INTEGER" }],
            rows: [
              { dimensionValues: [{ value: "/shop" }], metricValues: [{ value: "512" }] },
              { dimensionValues: [{ value: "/" }], metricValues: [{ value: "64" }] },
            ],
            rowCount: 2,
            metadata: { currencyCode: "EUR", timeZone: "Europe/Paris" },
            kind: "analyticsData#runReport",
          }),
          headers: { "content-type": "application/json" },
        },
      },
    });
    const created = await api("POST", `/v1/sites/${site.id}/traffic-sources`, { key, body: { kind: "ga4", property_id: "123456", service_account_key: serviceAccount } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.settings).toEqual({ property_id: "123456", client_email: serviceAccount.client_email });
    expect(JSON.stringify(created.body)).not.toContain("PRIVATE KEY");
    expect(await settled(site.id, created.body.id)).toMatchObject({ status: "ok", counts: { counted: 576, paths: 2 } });
    expect((await api("GET", `/v1/sites/${site.id}/traffic`, { key })).body.data.map((row: { path: string }) => row.path)).toEqual(["/shop", "/"]);
  });
});

describe("spending calls where visits are", () => {
  /** A validated site whose CSV lists /a … /e, and a log in which /e is visited most, then /d. */
  async function siteWithTraffic() {
    const site = await createValidatedSite(key);
    const base = `http://${site.domain}`;
    const pages = ["/a", "/b", "/c", "/d", "/e"];
    await serveSite(site.domain, {
      routes: {
        [`/${site.validation_token}.html`]: { body: site.validation_token },
        "/urls.csv": { body: `url\n${pages.map((path) => `${base}${path}`).join("\n")}\n`, headers: { "content-type": "text/csv" } },
      },
      fallback: { body: "<p>page</p>", headers: { "cache-control": "public, s-maxage=600" } },
    });
    // One call at a time: the origin's log shows the order the calls were made in.
    expect((await api("PATCH", `/v1/sites/${site.id}`, { key, body: { max_concurrency: 1 } })).status).toBe(200);
    const source = await uploadSource(site.id);
    await upload(site.id, source.id, [...Array.from({ length: 8 }, () => combined("/e")), ...Array.from({ length: 2 }, () => combined("/d"))].join("\n"));
    return { site, base };
  }

  it("url_order traffic warms the most visited first, and the run and estimate say the share of visits covered", async () => {
    const { site, base } = await siteWithTraffic();
    const boost = await api("POST", `/v1/sites/${site.id}/boosts`, { key, body: { name: "Popular first", source_type: "csv", source_url: `${base}/urls.csv`, region: ["fr"], url_order: "traffic" } });
    expect(boost.status, JSON.stringify(boost.body)).toBe(201);
    expect(boost.body).toMatchObject({ url_order: "traffic", order: "traffic" });
    const estimate = await api("GET", `/v1/boosts/${boost.body.id}/estimate`, { key });
    expect(estimate.body.visit_share).toEqual({ urls: 5, of_urls: 5, visits: 10, total_visits: 10, share: 1 });
    const run = await ended((await api("POST", `/v1/boosts/${boost.body.id}/run`, { key })).body.run_id);
    expect(run.visit_share).toEqual({ visits: 10, total_visits: 10, share: 1 });
    const warmed = (await originLog(site.domain)).filter((line) => /^GET \/[a-e]$/.test(line));
    expect(warmed.slice(0, 2)).toEqual(["GET /e", "GET /d"]);
  });

  it("a call limit that cannot cover every URL keeps the most visited, whatever the order", async () => {
    const { site, base } = await siteWithTraffic();
    const boost = await api("POST", `/v1/sites/${site.id}/boosts`, { key, body: { name: "Two calls", source_type: "csv", source_url: `${base}/urls.csv`, region: ["fr"], call_limit: 2 } });
    const estimate = await api("GET", `/v1/boosts/${boost.body.id}/estimate`, { key });
    expect(estimate.body.visit_share).toEqual({ urls: 2, of_urls: 5, visits: 10, total_visits: 10, share: 1 });
    expect(estimate.body.notes.join(" ")).toMatch(/these 2 of 5 URLs carry 100 % of the last 30 days' visits/);
    const run = await ended((await api("POST", `/v1/boosts/${boost.body.id}/run`, { key })).body.run_id);
    expect(run.summary.total_calls).toBe(2);
    const warmed = (await originLog(site.domain)).filter((line) => /^GET \/[a-e]$/.test(line));
    expect(warmed.sort()).toEqual(["GET /d", "GET /e"]);
  });

  it("a warm with url_order traffic warms the most visited of its URLs first", async () => {
    const { site, base } = await siteWithTraffic();
    const warm = await api("POST", `/v1/sites/${site.id}/warm`, { key, body: { urls: [`${base}/a`, `${base}/d`, `${base}/e`], url_order: "traffic" } });
    expect(warm.status, JSON.stringify(warm.body)).toBe(202);
    const run = await ended(warm.body.run_id);
    expect(run.visit_share).toEqual({ visits: 10, total_visits: 10, share: 1 });
    expect((await originLog(site.domain)).filter((line) => /^GET \/[a-e]$/.test(line))).toEqual(["GET /e", "GET /d", "GET /a"]);
  });
});
