import { beforeAll, describe, expect, it } from "vitest";
import { SCOPES } from "@/lib/auth/scopes";
import { addSitemap, api, cli, createSite, createValidatedSite, newKey, uniqueEmail } from "./support/api";
import { sessionOf, signUpAndConfirm, uniqueClient } from "./support/sessions";

// Keys limited to sites (`site_ids`): they see only their sites and what belongs to them; any other
// id is not found, exactly like another organization's, and the organization-wide operations refuse them.

const dashboard = { "x-preheat-dashboard": "1" };
type Site = Awaited<ReturnType<typeof createSite>>;

/** A new owner through sign-up, signed in with a password: the session cookie. */
async function signedInOwner(email: string): Promise<string> {
  const password = "a long enough password";
  await signUpAndConfirm(email, password, uniqueClient());
  return sessionOf(email, password);
}

const createKey = (cookie: string, body: Record<string, unknown>) => api("POST", "/api/dashboard/keys", { headers: { ...dashboard, cookie }, body: { name: "limited", scopes: [...SCOPES], ...body } });

async function created<T = { id: number }>(response: Promise<{ status: number; body: T }>, status = 201): Promise<T> {
  const answer = await response;
  if (answer.status !== status) throw new Error(`expected ${status}, got ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

const boostBody = (sitemapId: number) => ({ name: "Nightly", source_type: "sitemap", region: ["fr"], sitemap_ids: [sitemapId] });

let email: string;
let cookie: string;
let full: string;
let limited: string;
let siteA: Site;
let siteB: Site;
/** Site B's records, made with the key for every site. */
const b = { sitemap: 0, boost: 0, hook: 0, boostRun: 0, warmRun: 0 };
const a = { sitemap: 0, boost: 0 };

beforeAll(async () => {
  email = uniqueEmail("sitekeys");
  cookie = await signedInOwner(email);
  full = await newKey("all", email);
  [siteA, siteB] = [await createValidatedSite(full), await createValidatedSite(full)];
  a.sitemap = (await addSitemap(full, siteA.id, `https://${siteA.domain}/sitemap.xml`)).id;
  a.boost = (await created(api("POST", `/v1/sites/${siteA.id}/boosts`, { key: full, body: boostBody(a.sitemap) }))).id;
  b.sitemap = (await addSitemap(full, siteB.id, `https://${siteB.domain}/sitemap.xml`)).id;
  b.boost = (await created(api("POST", `/v1/sites/${siteB.id}/boosts`, { key: full, body: boostBody(b.sitemap) }))).id;
  b.hook = (await created(api("POST", `/v1/boosts/${b.boost}/hooks`, { key: full, body: { name: "deploy" } }))).id;
  b.boostRun = (await created<{ run_id: number }>(api("POST", `/v1/boosts/${b.boost}/run`, { key: full }), 202)).run_id;
  b.warmRun = (await created<{ run_id: number }>(api("POST", `/v1/sites/${siteB.id}/warm`, { key: full, body: { urls: [`https://${siteB.domain}/`] } }), 202)).run_id;
  const key = await created<{ key: string; api_key: Record<string, unknown> }>(createKey(cookie, { site_ids: [siteA.id] }));
  expect(key.api_key).toMatchObject({ site_ids: [siteA.id], created_by: email });
  limited = key.key;
}, 120_000);

describe("a key limited to one site", () => {
  it("lists only its site, totals included", async () => {
    expect((await api("GET", "/v1/sites", { key: full })).body.total).toBe(2);
    const sites = await api("GET", "/v1/sites", { key: limited });
    expect(sites.status).toBe(200);
    expect(sites.body.total).toBe(1);
    expect(sites.body.data.map((site: Site) => site.id)).toEqual([siteA.id]);
    expect((await api("GET", `/v1/sites/${siteA.id}`, { key: limited })).status).toBe(200);
    expect((await api("GET", `/v1/sites/${siteA.id}/sitemaps/${a.sitemap}`, { key: limited })).status).toBe(200);
    expect((await api("GET", `/v1/boosts/${a.boost}`, { key: limited })).status).toBe(200);
  });

  it("gets 404 not_found for every id of another site, as for another organization's", async () => {
    const s = siteB.id;
    const attempts: [string, string, unknown?][] = [
      ["GET", `/v1/sites/${s}`],
      ["PATCH", `/v1/sites/${s}`, { max_concurrency: 2 }],
      ["DELETE", `/v1/sites/${s}`],
      ["POST", `/v1/sites/${s}/validate`],
      ["POST", `/v1/sites/${s}/verification/rotate`],
      ["GET", `/v1/sites/${s}/sitemaps`],
      ["POST", `/v1/sites/${s}/sitemaps`, { url: `https://${siteB.domain}/other.xml` }],
      ["GET", `/v1/sites/${s}/sitemaps/${b.sitemap}`],
      ["DELETE", `/v1/sites/${s}/sitemaps/${b.sitemap}`],
      ["POST", `/v1/sites/${s}/sitemaps/${b.sitemap}/refresh`],
      ["GET", `/v1/sites/${siteA.id}/sitemaps/${b.sitemap}`],
      ["GET", `/v1/sites/${s}/boosts`],
      ["POST", `/v1/sites/${s}/boosts`, boostBody(b.sitemap)],
      ["POST", "/v1/boosts", { site_id: s, ...boostBody(b.sitemap) }],
      ["GET", `/v1/sites/${s}/boosts/${b.boost}`],
      ["GET", `/v1/sites/${siteA.id}/boosts/${b.boost}`],
      ["PATCH", `/v1/sites/${s}/boosts/${b.boost}`, { name: "taken" }],
      ["DELETE", `/v1/sites/${s}/boosts/${b.boost}`],
      ["POST", `/v1/sites/${s}/boosts/${b.boost}/run`],
      ["GET", `/v1/boosts/${b.boost}`],
      ["PUT", `/v1/boosts/${b.boost}`, { name: "taken" }],
      ["PATCH", `/v1/boosts/${b.boost}`, { name: "taken" }],
      ["DELETE", `/v1/boosts/${b.boost}`],
      ["POST", `/v1/boosts/${b.boost}/run`],
      ["GET", `/v1/boosts/${b.boost}/estimate`],
      ["GET", `/v1/boosts/${b.boost}/hooks`],
      ["POST", `/v1/boosts/${b.boost}/hooks`, { name: "taken" }],
      ["DELETE", `/v1/boosts/${b.boost}/hooks/${b.hook}`],
      ["GET", `/v1/runs/${b.boostRun}`],
      ["GET", `/v1/runs/${b.boostRun}/results`],
      ["GET", `/v1/runs/${b.boostRun}/results?format=csv`],
      ["GET", `/v1/runs/${b.warmRun}`],
      ["GET", `/v1/runs/${b.warmRun}/results`],
      ["GET", `/v1/sites/${s}/warm-runs`],
      ["POST", `/v1/sites/${s}/warm`, { urls: [`https://${siteB.domain}/`] }],
      ["GET", `/v1/runs?boost_id=${b.boost}`],
    ];
    for (const [method, path, body] of attempts) {
      const response = await api(method, path, { key: limited, body });
      if (path.startsWith("/v1/runs?")) {
        // A list: the other site's runs are left out, not refused.
        expect(response.body, path).toMatchObject({ data: [], total: 0 });
        continue;
      }
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body.code, `${method} ${path}`).toBe("not_found");
    }
    // Nothing of site B changed, and the key for every site still sees it all.
    expect((await api("GET", `/v1/sites/${s}`, { key: full })).body.validated).toBe(true);
    expect((await api("GET", `/v1/boosts/${b.boost}`, { key: full })).body.name).toBe("Nightly");
    expect((await api("GET", `/v1/boosts/${b.boost}/hooks`, { key: full })).body.total).toBe(1);
    expect((await api("GET", `/v1/runs/${b.warmRun}`, { key: full })).status).toBe(200);
  });

  it("warms and runs its own site, and lists only its runs", async () => {
    const warm = await api("POST", `/v1/sites/${siteA.id}/warm`, { key: limited, body: { urls: [`https://${siteA.domain}/`] } });
    expect(warm.status).toBe(202);
    const run = await api("POST", `/v1/boosts/${a.boost}/run`, { key: limited });
    expect(run.status).toBe(202);
    expect((await api("GET", `/v1/runs/${warm.body.run_id}`, { key: limited })).status).toBe(200);
    expect((await api("GET", `/v1/sites/${siteA.id}/warm-runs`, { key: limited })).body.total).toBe(1);
    const runs = await api("GET", "/v1/runs", { key: limited });
    expect(runs.body.total).toBe(1);
    expect(runs.body.data.map((r: { id: number }) => r.id)).toEqual([run.body.run_id]);
    expect((await api("GET", "/v1/runs", { key: full })).body.total).toBe(2);
    const hook = await api("POST", `/v1/boosts/${a.boost}/hooks`, { key: limited, body: { name: "ci" } });
    expect(hook.status).toBe(201);
  });

  it("is refused the operations about the whole organization: 403 site_limited_key", async () => {
    const attempts: [string, string, unknown?][] = [
      ["POST", "/v1/sites", { domain: "another.test" }],
      ["GET", "/v1/webhooks"],
      ["POST", "/v1/webhooks", { url: "https://hooks.example.com/preheat", events: ["run.completed"] }],
      ["GET", "/v1/webhooks/1"],
      ["PATCH", "/v1/webhooks/1", { enabled: false }],
      ["DELETE", "/v1/webhooks/1"],
      ["POST", "/v1/webhooks/1/test"],
      ["GET", "/v1/webhooks/1/deliveries"],
    ];
    for (const [method, path, body] of attempts) {
      const response = await api(method, path, { key: limited, body });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body.code, `${method} ${path}`).toBe("site_limited_key");
    }
    expect((await api("GET", "/v1/webhooks", { key: full })).status).toBe(200);
  });

  it("shows its sites, its limit and its creator in GET /v1/me", async () => {
    const me = await api("GET", "/v1/me", { key: limited });
    expect(me.status).toBe(200);
    expect(me.body.api_key).toMatchObject({ site_ids: [siteA.id], created_by: email });
    expect(me.body.sites).toEqual([{ id: siteA.id, domain: siteA.domain }]);
    const unlimited = await api("GET", "/v1/me", { key: full });
    expect(unlimited.body.api_key).toMatchObject({ site_ids: null, created_by: email });
    expect(unlimited.body.sites).toBeNull();
  });
});

describe("creating a site-limited key", () => {
  it("refuses another organization's site and an empty list with 422 on site_ids", async () => {
    const stranger = await createSite(await newKey());
    for (const siteIds of [[stranger.id], [siteA.id, stranger.id], []]) {
      const refused = await createKey(cookie, { site_ids: siteIds });
      expect(refused.status, JSON.stringify(siteIds)).toBe(422);
      expect(refused.body.code).toBe("validation_failed");
      expect(refused.body.details.map((d: { field: string }) => d.field)).toContain("site_ids");
    }
  });

  it("lists each key's sites and creator on the dashboard", async () => {
    const keys = await api("GET", "/api/dashboard/keys", { headers: { ...dashboard, cookie } });
    expect(keys.status).toBe(200);
    const views = keys.body.data as { name: string; site_ids: number[] | null; created_by: string | null }[];
    expect(views.find((k) => k.name === "limited")).toMatchObject({ site_ids: [siteA.id], created_by: email });
    expect(views.find((k) => k.name === "CLI key")).toMatchObject({ site_ids: null, created_by: email });
  });

  it("takes --sites in the operator CLI", async () => {
    const key = (await cli("keys", "create", "--email", email, "--scopes", "sites:read", "--sites", `${siteB.id}`)).trim();
    const sites = await api("GET", "/v1/sites", { key });
    expect(sites.body.data.map((site: Site) => site.id)).toEqual([siteB.id]);
    expect((await api("GET", `/v1/sites/${siteA.id}`, { key })).status).toBe(404);
    await expect(cli("keys", "create", "--email", email, "--scopes", "sites:read", "--sites", "abc")).rejects.toThrow(/--sites/);
  });
});

describe("an Idempotency-Key", () => {
  const withKey = () => ({ "idempotency-key": crypto.randomUUID() });

  it("is its API key's own: a key limited to one site never replays another key's warm of another site", async () => {
    const headers = withKey();
    const body = { urls: [`https://${siteB.domain}/replayed`] };
    const first = await api("POST", `/v1/sites/${siteB.id}/warm`, { key: full, body, headers });
    expect(first.status).toBe(202);
    const other = await api("POST", `/v1/sites/${siteB.id}/warm`, { key: limited, body, headers });
    expect(other).toMatchObject({ status: 404, body: { code: "not_found" } });
    expect(other.headers.get("idempotent-replayed")).toBeNull();
    expect(JSON.stringify(other.body)).not.toContain(String(first.body.run_id));
    // The limited key's same Idempotency-Key on its own site is a request of its own, replayed to it alone.
    const ownBody = { urls: [`https://${siteA.domain}/replayed`] };
    const own = await api("POST", `/v1/sites/${siteA.id}/warm`, { key: limited, body: ownBody, headers });
    expect(own.status).toBe(202);
    expect(own.headers.get("idempotent-replayed")).toBeNull();
    const again = await api("POST", `/v1/sites/${siteA.id}/warm`, { key: limited, body: ownBody, headers });
    expect(again).toMatchObject({ status: 202, body: { run_id: own.body.run_id } });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    // The owner's session with that Idempotency-Key is another holder: its request is handled as its
    // own (refused here, since the site has that warm under way), never answered with the key's run.
    const bySession = await api("POST", `/v1/sites/${siteA.id}/warm`, { headers: { ...dashboard, cookie, ...headers }, body: ownBody });
    expect(bySession.headers.get("idempotent-replayed")).toBeNull();
    expect(bySession.body.run_id).toBeUndefined();
  });

  it("replays nothing once its site is gone: the caller gets the 404 the request itself gets", async () => {
    const site = await createValidatedSite(full);
    const headers = withKey();
    const body = { url: `https://${site.domain}/sitemap.xml` };
    const first = await api("POST", `/v1/sites/${site.id}/sitemaps`, { key: full, body, headers });
    expect(first.status).toBe(201);
    expect((await api("POST", `/v1/sites/${site.id}/sitemaps`, { key: full, body, headers })).headers.get("idempotent-replayed")).toBe("true");
    expect((await api("DELETE", `/v1/sites/${site.id}`, { key: full })).status).toBe(204);
    const replay = await api("POST", `/v1/sites/${site.id}/sitemaps`, { key: full, body, headers });
    expect(replay).toMatchObject({ status: 404, body: { code: "not_found" } });
    expect(replay.headers.get("idempotent-replayed")).toBeNull();
  });
});
