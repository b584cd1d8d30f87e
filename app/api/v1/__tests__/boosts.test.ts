import { beforeAll, describe, expect, it } from "vitest";
import { nextRunAt } from "@/lib/core/schedule";
import { addSitemap, api, createSite, newKey, serveSite, uniqueEmail } from "./support/api";

const CSV_URL = "https://files.example.org/urls.csv";
/** A CSV file that takes 8 s to arrive: a run of a boost reading it stays in progress meanwhile. */
const SLOW_CSV_HOST = `slow-csv-${Date.now().toString(36)}.test`;
const SLOW_CSV_URL = `http://${SLOW_CSV_HOST}/urls.csv`;

let key: string;
let stranger: string; // another account
let reader: string; // the same account as `key`, without boosts:write
let site: { id: number; domain: string };
let sitemapId: number;

beforeAll(async () => {
  // Every key this file needs, made once: each is a CLI process.
  const email = uniqueEmail();
  key = await newKey("all", email);
  reader = await newKey("boosts:read,sites:read", email);
  stranger = await newKey();
  site = await createSite(key);
  sitemapId = (await addSitemap(key, site.id, `https://${site.domain}/sitemap.xml`)).id;
  await serveSite(SLOW_CSV_HOST, { routes: { "/urls.csv": { body: "url\n", delayMs: 8_000 } } });
});

/** A valid sitemap boost body for the shared site, with `overrides` applied. */
const sitemapBoost = (overrides: Record<string, unknown> = {}) => ({ name: "Nightly", source_type: "sitemap", region: ["fr"], sitemap_ids: [sitemapId], ...overrides });

/** A valid CSV boost body, with `overrides` applied. */
const csvBoost = (overrides: Record<string, unknown> = {}) => ({ name: "From CSV", source_type: "csv", region: ["us"], source_url: CSV_URL, ...overrides });

async function createBoost(body: Record<string, unknown> = sitemapBoost(), siteId = site.id, owner = key) {
  const response = await api("POST", `/v1/sites/${siteId}/boosts`, { key: owner, body });
  if (response.status !== 201) throw new Error(`boost creation failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as Record<string, any> & { id: number };
}

async function getBoost(id: number) {
  return (await api("GET", `/v1/boosts/${id}`, { key })).body;
}

/** The next instant after `from` at which a daily HH:MM (UTC) schedule fires. */
function nextDailyUtc(hour: number, minute: number, from: Date): string {
  const candidate = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate(), hour, minute));
  if (candidate.getTime() <= from.getTime()) candidate.setUTCDate(candidate.getUTCDate() + 1);
  return candidate.toISOString();
}

const iso = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

describe("creating a boost", () => {
  it("POST /v1/sites/{siteId}/boosts returns the full boost with its defaults", async () => {
    const response = await api("POST", `/v1/sites/${site.id}/boosts`, { key, body: sitemapBoost() });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(Number),
      site_id: site.id,
      name: "Nightly",
      status: "pending",
      source_type: "sitemap",
      region: ["fr"],
      sitemap_ids: [sitemapId],
      source_url: null,
      url_root: "/",
      exclude_ext: null,
      variations: null,
      request_profile: null,
      content_types: null,
      ignore_errors: false,
      verify: false,
      report_email_enabled: true,
      schedule: null,
      next_run_at: null,
      call_limit: null,
      url_order: "sitemap",
      order: "sitemap",
      only_changed: false,
      keep_warm: false,
      keep_warm_lead: 0,
      monthly_call_budget: null,
      unvalidated_limits: { max_urls_per_run: 10, max_calls_per_run: 100, max_runs_per_day: 24, message: expect.stringMatching(/^The site is not validated yet/) },
      created_at: iso,
      updated_at: iso,
    });
  });

  it("POST /v1/boosts takes the site in the body and gives the same boost", async () => {
    const response = await api("POST", "/v1/boosts", { key, body: { site_id: site.id, ...csvBoost() } });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      site_id: site.id,
      status: "pending",
      source_type: "csv",
      source_url: CSV_URL,
      sitemap_ids: [],
      region: ["us"],
      url_root: "/",
      ignore_errors: false,
      report_email_enabled: true,
      next_run_at: null,
    });
    expect((await api("GET", `/v1/boosts/${response.body.id}`, { key })).body).toEqual(response.body);
  });

  it("stores every optional field, normalised", async () => {
    const boost = await createBoost(
      sitemapBoost({
        name: "  Catalogue  ",
        region: ["fr", "us", "eu", "as", "de", "es", "gb"],
        url_root: "/shop",
        exclude_ext: [".JPG", "png", "..Css"],
        variations: { user_agents: ["mobile", "desktop", "bot", "ai_crawler"], languages: ["fr-fr", "EN-us"] },
        content_types: ["html", "image"],
        ignore_errors: true,
        verify: true,
        report_email_enabled: false,
        call_limit: 5000,
      }),
    );
    expect(boost).toMatchObject({
      name: "Catalogue",
      region: ["fr", "us", "eu", "as", "de", "es", "gb"],
      url_root: "/shop",
      exclude_ext: ["jpg", "png", "css"],
      variations: { user_agents: ["mobile", "desktop", "bot", "ai_crawler"], languages: ["fr-FR", "en-US"] },
      content_types: ["html", "image"],
      ignore_errors: true,
      verify: true,
      report_email_enabled: false,
      call_limit: 5000,
    });
    expect(await getBoost(boost.id)).toEqual(boost);
  });

  it('takes verify as true, false or "visitors" (a visitor check), and refuses anything else with 422', async () => {
    const boost = await createBoost(sitemapBoost({ verify: "visitors" }));
    expect(boost.verify).toBe("visitors");
    const updated = await api("PUT", `/v1/boosts/${boost.id}`, { key, body: { verify: true } });
    expect(updated.body.verify).toBe(true);
    const refused = await api("POST", `/v1/sites/${site.id}/boosts`, { key, body: sitemapBoost({ verify: "visitor" }) });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).toContain("verify");
    const warm = await api("POST", `/v1/sites/${site.id}/warm`, { key, body: { urls: [`https://${site.domain}/`], verify: "everyone" } });
    expect(warm.status).toBe(422);
  });

  it("stores uk as gb and collapses duplicate regions", async () => {
    const boost = await createBoost(sitemapBoost({ region: ["uk", "fr", "gb", "fr"] }));
    expect(boost.region).toEqual(["gb", "fr"]);
  });

  it("computes next_run_at from the schedule in UTC", async () => {
    const before = new Date();
    const boost = await createBoost(sitemapBoost({ schedule: "0 3 * * *" }));
    const after = new Date();
    expect(boost.schedule).toBe("0 3 * * *");
    expect([nextDailyUtc(3, 0, before), nextDailyUtc(3, 0, after)]).toContain(boost.next_run_at);
  });

  it("normalises the spacing of a schedule", async () => {
    const boost = await createBoost(csvBoost({ schedule: "  30   2 * *   1-5 " }));
    expect(boost.schedule).toBe("30 2 * * 1-5");
    expect(new Date(boost.next_run_at).toISOString()).toMatch(/T02:30:00\.000Z$/);
    expect([1, 2, 3, 4, 5]).toContain(new Date(boost.next_run_at).getUTCDay());
  });

  it.each([
    ["@hourly", "0 * * * *"],
    ["@daily", "0 0 * * *"],
    ["@weekly", "0 0 * * 0"],
    ["@monthly", "0 0 1 * *"],
    ["@yearly", "0 0 1 1 *"],
  ])("stores the macro %s as the cron it stands for, %s, and schedules it", async (macro, cron) => {
    const before = new Date();
    const boost = await createBoost(sitemapBoost({ schedule: macro }));
    const after = new Date();
    expect(boost.schedule).toBe(cron);
    expect([nextRunAt(cron, before)?.toISOString(), nextRunAt(cron, after)?.toISOString()]).toContain(boost.next_run_at);
    expect((await getBoost(boost.id)).schedule).toBe(cron);
  });

  it.each([
    ["0 0 31 4 *", "never fires (no date matches: April has 30 days)"],
    ["0 0 30 2 *", "never fires (no date matches: February has 29 days at most)"],
  ])("refuses %s, a schedule that can never fire, with 422 saying why", async (schedule, why) => {
    const response = await api("POST", `/v1/sites/${site.id}/boosts`, { key, body: sitemapBoost({ schedule }) });
    expect(response.status).toBe(422);
    expect(response.body.details).toContainEqual({ field: "schedule", message: why });
    expect(response.body.error).toContain(`schedule: ${why}`);
  });

  it("ignores sitemap_ids on a CSV boost and source_url on a sitemap boost", async () => {
    const fromCsv = await createBoost(csvBoost({ sitemap_ids: [sitemapId] }));
    expect(fromCsv.sitemap_ids).toEqual([]);
    const fromSitemap = await createBoost(sitemapBoost({ source_url: CSV_URL }));
    expect(fromSitemap.source_url).toBeNull();
  });

  it("collapses duplicate extensions and languages", async () => {
    const boost = await createBoost(sitemapBoost({ exclude_ext: ["jpg", ".JPG", "Jpg"], variations: { languages: ["fr-FR", "fr-fr"], user_agents: ["bot", "bot"] } }));
    expect(boost.exclude_ext).toEqual(["jpg"]);
    expect(boost.variations).toEqual({ languages: ["fr-FR"], user_agents: ["bot"] });
  });

  it("ignores unknown and read-only fields", async () => {
    const boost = await createBoost(sitemapBoost({ id: 1, status: "active", next_run_at: "2030-01-01T00:00:00.000Z", colour: "blue" }));
    expect(boost).toMatchObject({ status: "pending", next_run_at: null });
    expect(boost).not.toHaveProperty("colour");
    expect(boost.id).not.toBe(1);
  });

  it("answers 400 for malformed JSON and 422 for a body that is not an object", async () => {
    const malformed = await api("POST", `/v1/sites/${site.id}/boosts`, { key, rawBody: '{"name": "Nightly",' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toEqual(expect.any(String));
    expect((await api("POST", `/v1/sites/${site.id}/boosts`, { key, body: [sitemapBoost()] })).status).toBe(422);
  });

  it("collapses duplicate sitemap ids", async () => {
    const boost = await createBoost(sitemapBoost({ sitemap_ids: [sitemapId, sitemapId] }));
    expect(boost.sitemap_ids).toEqual([sitemapId]);
  });

  it.each([
    ["no name", { name: undefined }, "name"],
    ["an empty name", { name: "   " }, "name"],
    ["an unknown source type", { source_type: "feed" }, "source_type"],
    ["no region", { region: undefined }, "region"],
    ["an empty region list", { region: [] }, "region"],
    ["an unknown region", { region: ["fr", "mars"] }, "region[1]"],
    ["a region that is not a string", { region: [33] }, "region[0]"],
    ["a sitemap boost without sitemap_ids", { sitemap_ids: undefined }, "sitemap_ids"],
    ["an empty sitemap_ids list", { sitemap_ids: [] }, "sitemap_ids"],
    ["a sitemap id that is not an integer", { sitemap_ids: ["1"] }, "sitemap_ids[0]"],
    ["a url_root without a leading slash", { url_root: "shop" }, "url_root"],
    ["a full URL as url_root", { url_root: "https://example.com/shop" }, "url_root"],
    ["an extension with a slash", { exclude_ext: ["jpg", "a/b"] }, "exclude_ext[1]"],
    ["exclude_ext that is not a list", { exclude_ext: "jpg" }, "exclude_ext"],
    ["an unknown user agent", { variations: { user_agents: ["desktop", "tablet"] } }, "variations.user_agents[1]"],
    ["a language that is a word", { variations: { languages: ["french"] } }, "variations.languages[0]"],
    ["a language without region", { variations: { languages: ["fr"] } }, "variations.languages[0]"],
    ["a language with an underscore", { variations: { languages: ["fr_FR"] } }, "variations.languages[0]"],
    ["an unknown content type", { content_types: ["html", "spreadsheet"] }, "content_types[1]"],
    ["a 6-field schedule", { schedule: "0 0 3 * * *" }, "schedule"],
    ["a 4-field schedule", { schedule: "0 3 * *" }, "schedule"],
    ["minute 61", { schedule: "61 * * * *" }, "schedule"],
    ["hour 24", { schedule: "0 24 * * *" }, "schedule"],
    ["a schedule in words", { schedule: "every day" }, "schedule"],
    ["an empty schedule", { schedule: "" }, "schedule"],
    ["a zero call_limit", { call_limit: 0 }, "call_limit"],
    ["a negative call_limit", { call_limit: -1 }, "call_limit"],
    ["a fractional call_limit", { call_limit: 1.5 }, "call_limit"],
    ["a call_limit as a string", { call_limit: "10" }, "call_limit"],
    ["ignore_errors as a string", { ignore_errors: "yes" }, "ignore_errors"],
    ["report_email_enabled as a number", { report_email_enabled: 0 }, "report_email_enabled"],
  ])("refuses %s with 422 naming the field", async (_label, overrides, field) => {
    const response = await api("POST", `/v1/sites/${site.id}/boosts`, { key, body: sitemapBoost(overrides) });
    expect(response.status).toBe(422);
    expect(response.body.details).toContainEqual(expect.objectContaining({ field }));
    expect(response.body.error).toContain(field);
  });

  it.each([
    ["without source_url", { source_url: undefined }],
    ["with a relative source_url", { source_url: "/urls.csv" }],
    ["with an ftp source_url", { source_url: "ftp://files.example.org/urls.csv" }],
  ])("refuses a CSV boost %s with 422", async (_label, overrides) => {
    const response = await api("POST", `/v1/sites/${site.id}/boosts`, { key, body: csvBoost(overrides) });
    expect(response.status).toBe(422);
    expect(response.body.details).toContainEqual(expect.objectContaining({ field: "source_url" }));
  });

  it("POST /v1/boosts refuses a missing or invalid site_id with 422", async () => {
    for (const site_id of [undefined, "1", 0, 1.5]) {
      const response = await api("POST", "/v1/boosts", { key, body: { site_id, ...csvBoost() } });
      expect(response.status, `site_id ${JSON.stringify(site_id)}`).toBe(422);
      expect(response.body.details).toContainEqual(expect.objectContaining({ field: "site_id" }));
    }
  });

  it("answers 404 for a sitemap of another site of the account, and creates nothing", async () => {
    const otherSite = await createSite(key);
    const otherSitemap = await addSitemap(key, otherSite.id, `https://${otherSite.domain}/sitemap.xml`);
    const response = await api("POST", `/v1/sites/${site.id}/boosts`, { key, body: sitemapBoost({ name: "Borrowed", sitemap_ids: [sitemapId, otherSitemap.id] }) });
    expect(response.status).toBe(404);
    const list = await api("GET", `/v1/sites/${site.id}/boosts?limit=100`, { key });
    expect(list.body.data.map((b: { name: string }) => b.name)).not.toContain("Borrowed");
  });

  it("answers 404 or 422, not a server error, for a site_id beyond the integer range", async () => {
    const response = await api("POST", "/v1/boosts", { key, body: { site_id: 99_999_999_999, ...csvBoost() } });
    expect([404, 422]).toContain(response.status);
  });

  it.each([
    ["name", () => sitemapBoost({ name: "Night\u0000ly" })],
    ["url_root", () => sitemapBoost({ url_root: "/shop\u0000" })],
    ["source_url", () => csvBoost({ source_url: "https://files.example.org/urls\u0000.csv" })],
  ])("refuses a NUL character in %s with 422, not a server error", async (field, body) => {
    const response = await api("POST", `/v1/sites/${site.id}/boosts`, { key, body: body() });
    expect(response.status).toBe(422);
    expect(response.body.error).toContain(field);
  });

  it("answers 404 for an unknown sitemap id, and 404 or 422 for one beyond the integer range", async () => {
    const unknown = await api("POST", "/v1/boosts", { key, body: { site_id: site.id, ...sitemapBoost({ sitemap_ids: [999_999_999] }) } });
    expect(unknown.status).toBe(404);
    const outOfRange = await api("POST", "/v1/boosts", { key, body: { site_id: site.id, ...sitemapBoost({ sitemap_ids: [99_999_999_999] }) } });
    expect([404, 422]).toContain(outOfRange.status);
  });

  it("answers 404 for another account's site, on both paths", async () => {
    const body = csvBoost();
    expect((await api("POST", `/v1/sites/${site.id}/boosts`, { key: stranger, body })).status).toBe(404);
    expect((await api("POST", "/v1/boosts", { key: stranger, body: { site_id: site.id, ...body } })).status).toBe(404);
    expect((await api("POST", "/v1/boosts", { key, body: { site_id: 999_999_999, ...body } })).status).toBe(404);
  });

  it("answers 404 when another account names this account's sitemap", async () => {
    const strangerSite = await createSite(stranger);
    const response = await api("POST", `/v1/sites/${strangerSite.id}/boosts`, { key: stranger, body: sitemapBoost() });
    expect(response.status).toBe(404);
  });

  it("needs the boosts:write scope, and lets a boosts:read key read", async () => {
    const response = await api("POST", `/v1/sites/${site.id}/boosts`, { key: reader, body: csvBoost() });
    expect(response.status).toBe(403);
    expect(response.body.required_scope).toBe("boosts:write");
    const boost = await createBoost();
    expect((await api("GET", `/v1/boosts/${boost.id}`, { key: reader })).status).toBe(200);
    expect((await api("PUT", `/v1/boosts/${boost.id}`, { key: reader, body: { name: "No" } })).status).toBe(403);
    expect((await api("POST", `/v1/boosts/${boost.id}/run`, { key: reader })).status).toBe(403);
  });
});

describe("reading boosts", () => {
  it("GET /v1/boosts/{id} and GET /v1/sites/{siteId}/boosts/{boostId} return the boost", async () => {
    const boost = await createBoost();
    const direct = await api("GET", `/v1/boosts/${boost.id}`, { key });
    expect(direct.status).toBe(200);
    expect(direct.body).toEqual(boost);
    const scoped = await api("GET", `/v1/sites/${site.id}/boosts/${boost.id}`, { key });
    expect(scoped.status).toBe(200);
    expect(scoped.body).toEqual(boost);
  });

  it("answers 404 through another site of the account", async () => {
    const boost = await createBoost();
    const otherSite = await createSite(key);
    expect((await api("GET", `/v1/sites/${otherSite.id}/boosts/${boost.id}`, { key })).status).toBe(404);
  });

  it("answers 404 for another account's boost and for an unknown one", async () => {
    const boost = await createBoost();
    expect((await api("GET", `/v1/boosts/${boost.id}`, { key: stranger })).status).toBe(404);
    expect((await api("GET", `/v1/sites/${site.id}/boosts/${boost.id}`, { key: stranger })).status).toBe(404);
    expect((await api("GET", "/v1/boosts/999999999", { key })).status).toBe(404);
  });

  it.each([
    ["GET", "/v1/boosts"],
    ["PUT", "/v1/sites/{siteId}/boosts/{boostId}"],
    ["GET", "/v1/boosts/{boostId}/run"],
  ])("answers 405 with a JSON error to %s %s", async (method, template) => {
    const boost = await createBoost();
    const path = template.replace("{siteId}", String(site.id)).replace("{boostId}", String(boost.id));
    const response = await api(method, path, { key, body: method === "PUT" ? { name: "x" } : undefined });
    expect(response.status).toBe(405);
    expect(response.body).toEqual({ error: expect.any(String), code: "method_not_allowed" });
  });

  it("answers 422 for an id that is not a positive integer", async () => {
    for (const id of ["abc", "0", "-1", "1.5"]) {
      expect((await api("GET", `/v1/boosts/${id}`, { key })).status, id).toBe(422);
    }
  });

  it("lists a site's boosts newest first, with paging", async () => {
    const listed = await createSite(key);
    const created = [];
    for (const name of ["first", "second", "third"]) created.push(await createBoost(csvBoost({ name }), listed.id));
    await createBoost(csvBoost({ name: "elsewhere" })); // on the shared site: not listed

    const all = await api("GET", `/v1/sites/${listed.id}/boosts`, { key });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 3, limit: 20, offset: 0 });
    expect(all.body.data).toEqual([created[2], created[1], created[0]]);

    const page = await api("GET", `/v1/sites/${listed.id}/boosts?limit=1&offset=1`, { key });
    expect(page.body).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(page.body.data.map((b: { name: string }) => b.name)).toEqual(["second"]);
  });

  it("lists nothing for a site without boosts", async () => {
    const empty = await createSite(key);
    expect((await api("GET", `/v1/sites/${empty.id}/boosts`, { key })).body).toEqual({ data: [], total: 0, limit: 20, offset: 0 });
  });

  it("answers 404 for the boost list of another account's site, and 422 for bad paging", async () => {
    expect((await api("GET", `/v1/sites/${site.id}/boosts`, { key: stranger })).status).toBe(404);
    expect((await api("GET", `/v1/sites/${site.id}/boosts?limit=101`, { key })).status).toBe(422);
    expect((await api("GET", `/v1/sites/${site.id}/boosts?offset=-1`, { key })).status).toBe(422);
  });
});

describe("updating a boost", () => {
  it("PUT /v1/boosts/{id} changes only the supplied fields", async () => {
    const boost = await createBoost(
      sitemapBoost({ region: ["fr", "de"], url_root: "/shop", exclude_ext: ["jpg"], variations: { user_agents: ["mobile"] }, schedule: "0 3 * * *", call_limit: 100, ignore_errors: true }),
    );
    const response = await api("PUT", `/v1/boosts/${boost.id}`, { key, body: { name: "Renamed" } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...boost, name: "Renamed", updated_at: expect.any(String) });
    expect(await getBoost(boost.id)).toEqual(response.body);
  });

  it("PATCH /v1/sites/{siteId}/boosts/{boostId} changes only the supplied fields", async () => {
    const boost = await createBoost(sitemapBoost({ call_limit: 100 }));
    const response = await api("PATCH", `/v1/sites/${site.id}/boosts/${boost.id}`, {
      key,
      body: { region: ["uk", "gb", "es"], exclude_ext: [".PNG", ".JPG"], variations: { languages: ["de-de"] }, report_email_enabled: false, content_types: ["css"] },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      ...boost,
      region: ["gb", "es"],
      exclude_ext: ["png", "jpg"],
      variations: { languages: ["de-DE"] },
      report_email_enabled: false,
      content_types: ["css"],
      updated_at: expect.any(String),
    });
  });

  it("PATCH /v1/boosts/{id} works like PUT", async () => {
    const boost = await createBoost();
    const response = await api("PATCH", `/v1/boosts/${boost.id}`, { key, body: { ignore_errors: true, url_root: "/blog" } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ ignore_errors: true, url_root: "/blog", name: boost.name, region: boost.region });
  });

  it("ignores unknown and read-only fields", async () => {
    const boost = await createBoost();
    const otherSite = await createSite(key);
    const response = await api("PUT", `/v1/boosts/${boost.id}`, { key, body: { site_id: otherSite.id, source_type: "csv", status: "paused", id: 1, name: "Kept" } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: boost.id, site_id: site.id, source_type: "sitemap", status: "pending", name: "Kept" });
  });

  it("an empty body changes nothing", async () => {
    const boost = await createBoost();
    const response = await api("PUT", `/v1/boosts/${boost.id}`, { key, body: {} });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...boost, updated_at: expect.any(String) });
  });

  it("sets a schedule and recomputes next_run_at in UTC", async () => {
    const boost = await createBoost();
    const before = new Date();
    const response = await api("PUT", `/v1/boosts/${boost.id}`, { key, body: { schedule: "15 22 * * *" } });
    const after = new Date();
    expect(response.status).toBe(200);
    expect(response.body.schedule).toBe("15 22 * * *");
    expect([nextDailyUtc(22, 15, before), nextDailyUtc(22, 15, after)]).toContain(response.body.next_run_at);
  });

  it("refuses a schedule that can never fire with 422 and keeps the one it had", async () => {
    const boost = await createBoost(sitemapBoost({ schedule: "@daily" }));
    const response = await api("PUT", `/v1/boosts/${boost.id}`, { key, body: { schedule: "0 0 31 4 *" } });
    expect(response.status).toBe(422);
    expect(response.body.details).toContainEqual({ field: "schedule", message: "never fires (no date matches: April has 30 days)" });
    expect(await getBoost(boost.id)).toMatchObject({ schedule: "0 0 * * *", next_run_at: boost.next_run_at });
  });

  it("schedule: null and call_limit: null clear them, and next_run_at becomes null", async () => {
    const boost = await createBoost(sitemapBoost({ schedule: "0 3 * * *", call_limit: 100 }));
    expect(boost.next_run_at).not.toBeNull();
    const response = await api("PUT", `/v1/boosts/${boost.id}`, { key, body: { schedule: null, call_limit: null } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ schedule: null, next_run_at: null, call_limit: null, name: boost.name });
    expect(await getBoost(boost.id)).toMatchObject({ schedule: null, next_run_at: null, call_limit: null });
  });

  it("null clears exclude_ext, variations and content_types", async () => {
    const boost = await createBoost(sitemapBoost({ exclude_ext: ["jpg"], variations: { user_agents: ["bot"] }, content_types: ["html"] }));
    const response = await api("PATCH", `/v1/sites/${site.id}/boosts/${boost.id}`, { key, body: { exclude_ext: null, variations: null, content_types: null } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ exclude_ext: null, variations: null, content_types: null });
  });

  it("replaces the sitemaps of a sitemap boost with others of the same site", async () => {
    const second = await addSitemap(key, site.id, `https://${site.domain}/sitemap-${Date.now()}.xml`);
    const boost = await createBoost();
    const response = await api("PUT", `/v1/boosts/${boost.id}`, { key, body: { sitemap_ids: [second.id] } });
    expect(response.status).toBe(200);
    expect(response.body.sitemap_ids).toEqual([second.id]);
  });

  it("answers 404 for another site's sitemap, and leaves the boost as it was", async () => {
    const otherSite = await createSite(key);
    const foreign = await addSitemap(key, otherSite.id, `https://${otherSite.domain}/sitemap.xml`);
    const boost = await createBoost();
    expect((await api("PUT", `/v1/boosts/${boost.id}`, { key, body: { sitemap_ids: [foreign.id] } })).status).toBe(404);
    expect((await getBoost(boost.id)).sitemap_ids).toEqual([sitemapId]);
  });

  it.each([
    ["an empty name", { name: "" }, "name"],
    ["an unknown region", { region: ["fr", "zz"] }, "region[1]"],
    ["an empty region list", { region: [] }, "region"],
    ["a url_root without a leading slash", { url_root: "blog" }, "url_root"],
    ["a language that is a word", { variations: { languages: ["french"] } }, "variations.languages[0]"],
    ["an unknown user agent", { variations: { user_agents: ["robot"] } }, "variations.user_agents[0]"],
    ["a 6-field schedule", { schedule: "0 0 3 * * *" }, "schedule"],
    ["minute 61", { schedule: "61 * * * *" }, "schedule"],
    ["a zero call_limit", { call_limit: 0 }, "call_limit"],
    ["a negative call_limit", { call_limit: -1 }, "call_limit"],
    ["a fractional call_limit", { call_limit: 1.5 }, "call_limit"],
    ["a call_limit as a string", { call_limit: "10" }, "call_limit"],
    ["ignore_errors as a string", { ignore_errors: "true" }, "ignore_errors"],
  ])("refuses %s with 422 and changes nothing", async (_label, body, field) => {
    const boost = await createBoost();
    const response = await api("PUT", `/v1/boosts/${boost.id}`, { key, body });
    expect(response.status).toBe(422);
    expect(response.body.details).toContainEqual(expect.objectContaining({ field }));
    expect(await getBoost(boost.id)).toEqual(boost);
  });

  it("refuses sitemap_ids on a CSV boost with 422", async () => {
    const boost = await createBoost(csvBoost());
    const response = await api("PATCH", `/v1/boosts/${boost.id}`, { key, body: { sitemap_ids: [sitemapId] } });
    expect(response.status).toBe(422);
    expect(response.body.error).toMatch(/sitemap_ids/);
  });

  it("answers 409 while a run is in progress, on every update path, and changes nothing", async () => {
    const boost = await createBoost(csvBoost({ source_url: SLOW_CSV_URL }));
    expect((await api("POST", `/v1/boosts/${boost.id}/run`, { key })).status).toBe(202);
    const before = await getBoost(boost.id);
    for (const [method, path] of [
      ["PUT", `/v1/boosts/${boost.id}`],
      ["PATCH", `/v1/boosts/${boost.id}`],
      ["PATCH", `/v1/sites/${site.id}/boosts/${boost.id}`],
    ] as const) {
      const response = await api(method, path, { key, body: { name: "Too late" } });
      expect(response.status, `${method} ${path}`).toBe(409);
      expect(response.body.error).toEqual(expect.any(String));
    }
    expect(await getBoost(boost.id)).toEqual(before);
  });

  it("answers 404 for another account's boost, an unknown boost, or the wrong site", async () => {
    const boost = await createBoost();
    expect((await api("PUT", `/v1/boosts/${boost.id}`, { key: stranger, body: { name: "Mine" } })).status).toBe(404);
    expect((await api("PATCH", `/v1/sites/${site.id}/boosts/${boost.id}`, { key: stranger, body: { name: "Mine" } })).status).toBe(404);
    expect((await api("PUT", "/v1/boosts/999999999", { key, body: { name: "Ghost" } })).status).toBe(404);
    const otherSite = await createSite(key);
    expect((await api("PATCH", `/v1/sites/${otherSite.id}/boosts/${boost.id}`, { key, body: { name: "Moved" } })).status).toBe(404);
    expect((await getBoost(boost.id)).name).toBe(boost.name);
  });
});

describe("triggering a run", () => {
  it("POST /v1/boosts/{id}/run queues a pending run and marks the boost running", async () => {
    const boost = await createBoost(csvBoost({ source_url: SLOW_CSV_URL }));
    const response = await api("POST", `/v1/boosts/${boost.id}/run`, { key });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ run_id: expect.any(Number), status: "pending", unvalidated_limits: expect.objectContaining({ max_runs_per_day: 24 }) });
    expect((await getBoost(boost.id)).status).toBe("running");
    const run = await api("GET", `/v1/runs/${response.body.run_id}`, { key });
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ id: response.body.run_id, boost_id: boost.id });
    // Still waiting for its CSV file: pending, or running once a worker has picked it up.
    expect(["pending", "running"]).toContain(run.body.status);
  });

  it("POST /v1/sites/{siteId}/boosts/{boostId}/run does the same", async () => {
    const boost = await createBoost(csvBoost({ source_url: SLOW_CSV_URL }));
    const response = await api("POST", `/v1/sites/${site.id}/boosts/${boost.id}/run`, { key });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ run_id: expect.any(Number), status: "pending", unvalidated_limits: expect.objectContaining({ max_runs_per_day: 24 }) });
    expect((await getBoost(boost.id)).status).toBe("running");
  });

  it("answers 409 to a second trigger while the first run is in progress, on either path", async () => {
    const boost = await createBoost(csvBoost({ source_url: SLOW_CSV_URL }));
    const first = await api("POST", `/v1/boosts/${boost.id}/run`, { key });
    expect(first.status).toBe(202);
    expect((await api("POST", `/v1/boosts/${boost.id}/run`, { key })).status).toBe(409);
    expect((await api("POST", `/v1/sites/${site.id}/boosts/${boost.id}/run`, { key })).status).toBe(409);
    const runs = await api("GET", `/v1/runs?boost_id=${boost.id}`, { key });
    expect(runs.body.data.map((r: { id: number }) => r.id)).toEqual([first.body.run_id]);
  });

  it("answers 404 for another account's boost, an unknown boost, or the wrong site", async () => {
    const boost = await createBoost();
    expect((await api("POST", `/v1/boosts/${boost.id}/run`, { key: stranger })).status).toBe(404);
    expect((await api("POST", "/v1/boosts/999999999/run", { key })).status).toBe(404);
    const otherSite = await createSite(key);
    expect((await api("POST", `/v1/sites/${otherSite.id}/boosts/${boost.id}/run`, { key })).status).toBe(404);
    expect((await getBoost(boost.id)).status).toBe("pending");
  });
});

describe("deleting a boost", () => {
  it("DELETE /v1/boosts/{id} answers 204, then the boost and its runs are gone", async () => {
    const boost = await createBoost();
    const run = await api("POST", `/v1/boosts/${boost.id}/run`, { key });
    const response = await api("DELETE", `/v1/boosts/${boost.id}`, { key });
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
    expect((await api("GET", `/v1/boosts/${boost.id}`, { key })).status).toBe(404);
    expect((await api("GET", `/v1/runs/${run.body.run_id}`, { key })).status).toBe(404);
    expect((await api("DELETE", `/v1/boosts/${boost.id}`, { key })).status).toBe(404);
  });

  it("DELETE /v1/sites/{siteId}/boosts/{boostId} answers 204, then the boost is gone from the site", async () => {
    const boost = await createBoost(csvBoost());
    const run = await api("POST", `/v1/sites/${site.id}/boosts/${boost.id}/run`, { key });
    expect((await api("DELETE", `/v1/sites/${site.id}/boosts/${boost.id}`, { key })).status).toBe(204);
    expect((await api("GET", `/v1/sites/${site.id}/boosts/${boost.id}`, { key })).status).toBe(404);
    expect((await api("GET", `/v1/runs/${run.body.run_id}`, { key })).status).toBe(404);
    const list = await api("GET", `/v1/sites/${site.id}/boosts?limit=100`, { key });
    expect(list.body.data.map((b: { id: number }) => b.id)).not.toContain(boost.id);
  });

  it("answers 404 for another account's boost or the wrong site, and keeps the boost", async () => {
    const boost = await createBoost();
    expect((await api("DELETE", `/v1/boosts/${boost.id}`, { key: stranger })).status).toBe(404);
    const otherSite = await createSite(key);
    expect((await api("DELETE", `/v1/sites/${otherSite.id}/boosts/${boost.id}`, { key })).status).toBe(404);
    expect((await api("GET", `/v1/boosts/${boost.id}`, { key })).status).toBe(200);
  });
});

describe("GET /v1/boosts/{boostId}/estimate", () => {
  it("answers what a run would do now, from the sitemaps' current lists, without starting one", async () => {
    const own = await createSite(key);
    const urls = Array.from({ length: 5 }, (_, i) => `<url><loc>http://${own.domain}/p/${i}</loc></url>`).join("");
    await serveSite(own.domain, { routes: { "/sitemap.xml": { body: `<urlset>${urls}</urlset>`, headers: { "content-type": "application/xml" } } } });
    const sitemap = await addSitemap(key, own.id, `http://${own.domain}/sitemap.xml`);
    await expect.poll(async () => (await api("GET", `/v1/sites/${own.id}/sitemaps/${sitemap.id}`, { key })).body.status, { timeout: 20_000 }).toBe("done");
    const boost = await api("POST", `/v1/sites/${own.id}/boosts`, {
      key,
      body: { name: "Estimated", source_type: "sitemap", sitemap_ids: [sitemap.id], region: ["fr", "de"], variations: { user_agents: ["mobile", "desktop"] } },
    });
    const estimate = await api("GET", `/v1/boosts/${boost.body.id}/estimate`, { key });
    expect(estimate.status).toBe(200);
    // The site is not validated: its first 10 URLs, at most 100 calls.
    // fr and de leave through this server's one network: the estimate says they warm one cache.
    expect(estimate.body).toMatchObject({ urls: 5, calls: 20, calls_by_region: { fr: 10, de: 10 }, notes: [expect.stringContaining("fr and de leave through")], shared_egress: [["fr", "de"]] });
    expect(estimate.body.quota_remaining).toEqual(expect.any(Number));
    expect((await api("GET", `/v1/runs?boost_id=${boost.body.id}`, { key })).body.total).toBe(0);

    expect((await api("GET", `/v1/boosts/${boost.body.id}/estimate`, { key: await newKey() })).status).toBe(404);
    expect((await api("GET", `/v1/boosts/${boost.body.id}/estimate`, { key: await newKey("sites:read") })).status).toBe(403);
  });
});
