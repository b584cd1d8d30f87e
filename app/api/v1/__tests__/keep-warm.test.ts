import { beforeAll, describe, expect, it } from "vitest";
import { api, createValidatedSite, endedRun, newKey, serveSite } from "./support/api";

// keep_warm on a boost, through the API as an integrator drives it: the fields, their bounds, and
// what GET /v1/boosts/{id}/keep-warm says once a run has read the pages' lifetimes. The re-warms
// themselves, a lifetime apart, are timed in lib/runs/keep-warm.test.ts.

let key: string;
beforeAll(async () => {
  key = await newKey();
});

const ended = (runId: number) => endedRun(key, runId);

describe("keep_warm", () => {
  it("is set on create and update, with its lead and budget, and refuses values out of bounds with 422", async () => {
    const site = await createValidatedSite(key);
    const body = { name: "Warm", source_type: "csv", source_url: `http://${site.domain}/urls.csv`, region: ["fr"] };
    const created = await api("POST", `/v1/sites/${site.id}/boosts`, { key, body: { ...body, keep_warm: true, monthly_call_budget: 10_000 } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ keep_warm: true, keep_warm_lead: 0, monthly_call_budget: 10_000 });
    // Without a schedule, its first full run comes at once, to learn the pages' lifetimes.
    expect(Date.parse(created.body.next_run_at)).toBeLessThanOrEqual(Date.now());
    const patched = await api("PATCH", `/v1/boosts/${created.body.id}`, { key, body: { keep_warm_lead: 0.25, monthly_call_budget: null } });
    expect(patched.body).toMatchObject({ keep_warm: true, keep_warm_lead: 0.25, monthly_call_budget: null });
    for (const bad of [{ keep_warm_lead: 1 }, { keep_warm_lead: -0.1 }, { monthly_call_budget: -1 }, { keep_warm: "yes" }]) {
      const refused = await api("PATCH", `/v1/boosts/${created.body.id}`, { key, body: bad });
      expect(refused.status, JSON.stringify(bad)).toBe(422);
    }
    expect((await api("GET", `/v1/boosts/${created.body.id}`, { key })).body).toMatchObject({ keep_warm_lead: 0.25, monthly_call_budget: null });
    const off = await api("POST", `/v1/sites/${site.id}/boosts`, { key, body });
    expect(off.body).toMatchObject({ keep_warm: false, next_run_at: null });
  });

  it("lists the pages kept warm and those that are not, with why, once a run has read them", async () => {
    const site = await createValidatedSite(key);
    const base = `http://${site.domain}`;
    await serveSite(site.domain, {
      routes: {
        [`/${site.validation_token}.html`]: { body: site.validation_token },
        "/urls.csv": { body: `url\n${base}/hour\n${base}/private\n${base}/short\n`, headers: { "content-type": "text/csv" } },
        "/hour": { body: "<p>an hour</p>", headers: { "cache-control": "public, s-maxage=3600", "x-cache": "MISS" } },
        "/private": { body: "<p>mine</p>", headers: { "cache-control": "private, max-age=600", "x-cache": "MISS" } },
        "/short": { body: "<p>ten seconds</p>", headers: { "cache-control": "public, s-maxage=10", "x-cache": "MISS" } },
      },
    });
    const boost = await api("POST", `/v1/sites/${site.id}/boosts`, {
      key,
      // A schedule far ahead: the full run this test triggers is the only one.
      body: { name: "Warm", source_type: "csv", source_url: `${base}/urls.csv`, region: ["fr"], schedule: "@yearly", keep_warm: true, monthly_call_budget: 100 },
    });
    const run = await ended((await api("POST", `/v1/boosts/${boost.body.id}/run`, { key })).body.run_id);
    expect(run.status).toBe("done");

    const state = await api("GET", `/v1/boosts/${boost.body.id}/keep-warm?limit=10`, { key });
    expect(state.status).toBe(200);
    expect(state.body).toMatchObject({ keep_warm: true, entries: 3, chased: 1, monthly_call_budget: 100, calls_this_month: 0 });
    // One page kept warm an hour at a time: about 720 calls in 30 days, of which the budget of 100 covers none whole.
    expect(state.body.projected_monthly_calls).toBe(720);
    expect(state.body.left_cold_by_budget).toBe(1);
    const due = Date.parse(state.body.next_due_at);
    expect(due).toBeGreaterThan(Date.now() + 3_590_000);
    expect(state.body.not_chased.total).toBe(2);
    expect(state.body.not_chased.data).toEqual([
      expect.objectContaining({ url: `${base}/private`, region: "fr", reason: "not storable by a shared cache (private)" }),
      expect.objectContaining({ url: `${base}/short`, reason: "a shared-cache lifetime of 10 s: shorter than the 60 s floor", lifetime_seconds: 10 }),
    ]);
    // The boost's estimate counts the same cost beside its schedule's.
    const estimate = await api("GET", `/v1/boosts/${boost.body.id}/estimate`, { key });
    expect(estimate.body).toMatchObject({ keep_warm_calls_per_month: 720, keep_warm_left_cold: 1 });
    expect((await api("GET", `/v1/boosts/${boost.body.id}/keep-warm?limit=0`, { key })).status).toBe(422);
    expect((await api("GET", `/v1/boosts/${boost.body.id}/keep-warm`, { key: await newKey("sites:read") })).status).toBe(403);
  });
});
