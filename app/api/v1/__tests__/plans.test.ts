import { describe, expect, it } from "vitest";
import { api, cli, createSite, createValidatedSite, newKey, serveSite, uniqueEmail } from "./support/api";

// Plans and suspension as the operator sets them with the CLI, and as an integrator's key meets them.

const planLimit = (limit: string, plan: string) => ({ code: "plan_limit", limit, plan });

describe("a plan set by the operator", () => {
  it("shows in GET /v1/me and refuses each limit with 403 plan_limit, the boundary value accepted", async () => {
    const email = uniqueEmail("plan");
    const key = await newKey("all", email);
    const plan = `small-${Date.now()}`;
    const created = await cli("plans", "create", "--name", plan, "--monthly-calls", "40", "--sites", "1", "--max-concurrency", "2", "--regions", "fr,de", "--results", "3", "--verification", "no");
    expect(created).toContain(`Created plan`);
    expect(await cli("organizations", "set-plan", email, "--plan", plan)).toContain(`is on the plan ${plan}`);

    const me = await api("GET", "/v1/me", { key });
    expect(me.body.plan).toMatchObject({
      name: plan,
      limits: { monthly_calls: 40, sites: 1, max_site_concurrency: 2, regions: ["fr", "de"], run_results_max: 3, verification: false, run_retention_days: null },
    });
    expect(me.body.quota.limit).toBe(40);
    expect(me.body.regions.map((r: { code: string }) => r.code).sort()).toEqual(["de", "fr"]);

    const site = await createValidatedSite(key);
    const second = await api("POST", "/v1/sites", { key, body: { domain: `second-${Date.now()}.test` } });
    expect(second.status).toBe(403);
    expect(second.body).toMatchObject(planLimit("sites", plan));
    expect(second.body.error).toContain(plan);

    expect((await api("PATCH", `/v1/sites/${site.id}`, { key, body: { max_concurrency: 2 } })).status).toBe(200);
    expect((await api("PATCH", `/v1/sites/${site.id}`, { key, body: { max_concurrency: 3 } })).body).toMatchObject(planLimit("max_site_concurrency", plan));

    const url = (i: number) => `http://${site.domain}/p/${i}`;
    expect((await api("POST", `/v1/sites/${site.id}/warm`, { key, body: { urls: [url(0)], region: ["us"] } })).body).toMatchObject(planLimit("regions", plan));
    expect((await api("POST", `/v1/sites/${site.id}/warm`, { key, body: { urls: [url(0)], region: ["fr"], verify: true } })).body).toMatchObject(planLimit("verification", plan));
    const boost = await api("POST", `/v1/sites/${site.id}/boosts`, { key, body: { name: "Abroad", source_type: "csv", source_url: `https://${site.domain}/u.csv`, region: ["gb"] } });
    expect(boost.status).toBe(403);
    expect(boost.body).toMatchObject(planLimit("regions", plan));

    // Results kept per run: the plan's 3, however many calls miss.
    await serveSite(site.domain, { routes: { [`/${site.validation_token}.html`]: { body: site.validation_token } }, fallback: { body: "page", headers: { "x-cache": "MISS" } } });
    const warm = await api("POST", `/v1/sites/${site.id}/warm`, { key, body: { urls: [0, 1, 2, 3, 4, 5].map(url), region: ["fr"] } });
    expect(warm.status).toBe(202);
    await expect.poll(async () => (await api("GET", `/v1/runs/${warm.body.run_id}`, { key })).body.status, { timeout: 30_000, interval: 250 }).toBe("done");
    const results = await api("GET", `/v1/runs/${warm.body.run_id}/results`, { key });
    expect(results.body).toMatchObject({ total: 3, truncated: true });

    // The month's calls: 6 counted, 34 left; 35 are refused as the quota always was.
    const tooMany = await api("POST", `/v1/sites/${site.id}/warm`, { key, body: { urls: Array.from({ length: 35 }, (_, i) => url(i)), region: ["fr"] } });
    expect(tooMany.status).toBe(403);
    expect(tooMany.body.code).toBe("quota_exceeded");
  }, 60_000);

  it("lets the operator clear a limit and move an organization back to no plan", async () => {
    const email = uniqueEmail("unplanned");
    const key = await newKey("all", email);
    const plan = `one-site-${Date.now()}`;
    await cli("plans", "create", "--name", plan, "--sites", "1");
    await cli("organizations", "set-plan", email, "--plan", plan);
    await createSite(key);
    expect((await api("POST", "/v1/sites", { key, body: { domain: `b-${Date.now()}.test` } })).status).toBe(403);
    await cli("plans", "update", plan, "--sites", "default");
    expect((await api("POST", "/v1/sites", { key, body: { domain: `c-${Date.now()}.test` } })).status).toBe(201);
    await cli("organizations", "set-plan", email, "--plan", "none");
    expect((await api("GET", "/v1/me", { key })).body.plan).toMatchObject({ id: null, name: "default" });
    expect(await cli("plans", "list")).toContain(plan);
  });
});

describe("an organization suspended by the operator", () => {
  it("answers its keys and hooks 403 account_suspended with the reason, stops its runs, and resumes", async () => {
    const email = uniqueEmail("suspend");
    const key = await newKey("all", email);
    const site = await createValidatedSite(key);
    await serveSite(site.domain, { routes: { [`/${site.validation_token}.html`]: { body: site.validation_token } }, fallback: { body: "slow page", delayMs: 1500 } });
    const boost = await api("POST", `/v1/sites/${site.id}/boosts`, { key, body: { name: "Deploy", source_type: "csv", source_url: `https://${site.domain}/u.csv`, region: ["fr"] } });
    const hook = await api("POST", `/v1/boosts/${boost.body.id}/hooks`, { key, body: {} });
    const warm = await api("POST", `/v1/sites/${site.id}/warm`, { key, body: { urls: Array.from({ length: 40 }, (_, i) => `http://${site.domain}/slow/${i}`), region: ["fr"] } });
    await expect.poll(async () => (await api("GET", `/v1/runs/${warm.body.run_id}`, { key })).body.status, { timeout: 15_000, interval: 100 }).toBe("running");

    const reason = "Unpaid invoice for October";
    expect(await cli("organizations", "suspend", email, "--reason", reason)).toMatch(/Suspended .*; 1 run\(s\) stopped/);
    const refused = await api("GET", "/v1/sites", { key });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: "account_suspended", reason });
    expect(refused.body.error).toContain(reason);
    const hooked = await api("POST", new URL(hook.body.url).pathname, {});
    expect(hooked.status).toBe(403);
    expect(hooked.body.code).toBe("account_suspended");

    expect(await cli("organizations", "resume", email)).toMatch(/Resumed/);
    expect((await api("GET", "/v1/sites", { key })).status).toBe(200);
    const stopped = await api("GET", `/v1/runs/${warm.body.run_id}`, { key });
    expect(stopped.body).toMatchObject({ status: "failed", status_message: expect.stringMatching(/suspended/) });
    expect(stopped.body.progress.completed_calls).toBeLessThan(40);
  }, 60_000);
});
