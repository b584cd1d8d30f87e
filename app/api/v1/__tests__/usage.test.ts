import { describe, expect, inject, it } from "vitest";
import { occurrencesBetween } from "@/lib/core/schedule";
import { api, createSite, createValidatedSite, newKey, serveSite, uniqueEmail } from "./support/api";
import { sessionOf, signUpAndConfirm, uniqueClient } from "./support/sessions";

// What a customer spent, day by day, against the quota, and what the schedules will still spend.

const today = () => new Date().toISOString().slice(0, 10);
const MONTHLY_QUOTA = inject("monthlyQuota");

describe("GET /v1/usage", () => {
  it("counts each day's calls as the runs' calls, splits them by site and boost, and projects the schedules to the month's end", async () => {
    const key = await newKey();
    const site = await createValidatedSite(key);
    const other = await createValidatedSite(key);
    const urls = Array.from({ length: 4 }, (_, i) => `https://${site.domain}/p/${i}`);
    await serveSite(site.domain, {
      routes: { [`/${site.validation_token}.html`]: { body: site.validation_token }, "/urls.csv": { body: `url\n${urls.join("\n")}\n`, headers: { "content-type": "text/csv" } } },
      fallback: { body: "page" },
    });
    const warmed = await api("POST", `/v1/sites/${site.id}/warm`, { key, body: { urls, region: ["fr", "us"] } });
    expect(warmed.status).toBe(202);
    expect((await api("POST", `/v1/sites/${other.id}/warm`, { key, body: { urls: [`https://${other.domain}/`] } })).status).toBe(202);
    const boost = await api("POST", `/v1/sites/${site.id}/boosts`, {
      key,
      body: { name: "Hourly", source_type: "csv", source_url: `http://${site.domain}/urls.csv`, region: ["fr"], schedule: "0 * * * *" },
    });
    expect(boost.status).toBe(201);

    const usage = await api("GET", "/v1/usage?group_by=site", { key });
    expect(usage.status).toBe(200);
    const runs = await api("GET", `/v1/sites/${site.id}/warm-runs`, { key });
    const otherRuns = await api("GET", `/v1/sites/${other.id}/warm-runs`, { key });
    const planned = [...runs.body.data, ...otherRuns.body.data].reduce((sum: number, run: { progress: { planned_calls: number } }) => sum + run.progress.planned_calls, 0);
    expect(usage.body.days.find((d: { date: string }) => d.date === today()).calls).toBe(planned);
    expect(usage.body.total).toBe(planned);
    expect(usage.body.quota).toMatchObject({ used: planned, not_in_runs: 0 });
    expect(usage.body.quota.remaining).toBe(usage.body.quota.limit - planned);
    expect(usage.body.groups.map((g: { site_id: number; calls: number }) => [g.site_id, g.calls])).toEqual([
      [site.id, 8],
      [other.id, 1],
    ]);

    // The hourly boost: its remaining occurrences this month × what a run would make now.
    const estimate = await api("GET", `/v1/boosts/${boost.body.id}/estimate`, { key });
    const [projected] = usage.body.projection.boosts;
    expect(projected).toMatchObject({ boost_id: boost.body.id, schedule: "0 * * * *", calls_per_run: estimate.body.calls });
    expect(estimate.body.calls).toBe(4);
    const expected = occurrencesBetween("0 * * * *", new Date(), new Date(usage.body.quota.period_end));
    expect(Math.abs(projected.runs_left - expected)).toBeLessThanOrEqual(1);
    expect(projected.calls).toBe(projected.runs_left * 4);
    expect(usage.body.projection.projected).toBe(planned + projected.calls);

    const byBoost = await api("GET", "/v1/usage?group_by=boost", { key });
    expect(byBoost.body.groups.every((g: { boost_id: number | null }) => g.boost_id === null)).toBe(true);
  });

  it("refuses a bad period with 422 and needs runs:read", async () => {
    const key = await newKey();
    for (const query of ["from=2026-13-01", "from=yesterday", "from=2026-11-10&to=2026-11-01", "from=2024-01-01&to=2026-01-01", "group_by=region"]) {
      expect((await api("GET", `/v1/usage?${query}`, { key })).status, query).toBe(422);
    }
    const days = await api("GET", "/v1/usage?from=2026-11-01&to=2026-11-03", { key });
    expect(days.body.days.map((d: { date: string }) => d.date)).toEqual(["2026-11-01", "2026-11-02", "2026-11-03"]);
    const narrow = await newKey("sites:read");
    expect((await api("GET", "/v1/usage", { key: narrow })).body.code).toBe("insufficient_scope");
  });
});

describe("the estimate's monthly cost", () => {
  const MONTH_MS = 30 * 86_400_000;
  /** The schedule's runs in the 30 days from now, as the estimate counts them a moment later (a boundary may pass between the two). */
  const runsInMonth = (schedule: string) => occurrencesBetween(schedule, new Date(), new Date(Date.now() + MONTH_MS));

  it("prices a saved boost's schedule as its runs in the next 30 days × the calls of a run, beside the monthly quota", async () => {
    const key = await newKey();
    const site = await createSite(key);
    const urls = Array.from({ length: 3 }, (_, i) => `https://${site.domain}/p/${i}`);
    await serveSite(site.domain, { routes: { "/urls.csv": { body: `url\n${urls.join("\n")}\n`, headers: { "content-type": "text/csv" } } } });
    const body = { name: "Costly", source_type: "csv", source_url: `http://${site.domain}/urls.csv`, region: ["fr", "us"] };

    const daily = await api("POST", `/v1/sites/${site.id}/boosts`, { key, body: { ...body, schedule: "0 3 * * *" } });
    const estimate = await api("GET", `/v1/boosts/${daily.body.id}/estimate`, { key });
    expect(estimate.status).toBe(200);
    expect(estimate.body.calls).toBe(6);
    expect(estimate.body.calls_per_month).toBe(runsInMonth("0 3 * * *") * 6);
    expect(estimate.body.calls_per_month).toBe(30 * 6);
    expect(estimate.body.monthly_quota).toBe(MONTHLY_QUOTA);

    const everyMinute = await api("POST", `/v1/sites/${site.id}/boosts`, { key, body: { ...body, schedule: "* * * * *" } });
    const costly = await api("GET", `/v1/boosts/${everyMinute.body.id}/estimate`, { key });
    expect(costly.body.calls_per_month % 6).toBe(0);
    expect(Math.abs(costly.body.calls_per_month / 6 - runsInMonth("* * * * *"))).toBeLessThanOrEqual(1);
    expect(costly.body.calls_per_month).toBeGreaterThan(MONTHLY_QUOTA);

    const onDemand = await api("POST", `/v1/sites/${site.id}/boosts`, { key, body });
    expect((await api("GET", `/v1/boosts/${onDemand.body.id}/estimate`, { key })).body).toMatchObject({ calls: 6, calls_per_month: null, monthly_quota: MONTHLY_QUOTA });
  });

  it("prices the boost form's draft schedule too, with null for no schedule or one still being typed", async () => {
    const email = uniqueEmail("cost");
    await signUpAndConfirm(email, "a long enough password", uniqueClient());
    const headers = { "x-preheat-dashboard": "1", cookie: await sessionOf(email, "a long enough password") };
    const site = await api("POST", "/v1/sites", { headers, body: { domain: `cost-${Date.now().toString(36)}.test` } });
    expect(site.status).toBe(201);
    const urls = Array.from({ length: 2 }, (_, i) => `https://${site.body.domain}/p/${i}`);
    await serveSite(site.body.domain, { routes: { "/urls.csv": { body: `url\n${urls.join("\n")}\n`, headers: { "content-type": "text/csv" } } } });
    const draft = { source_type: "csv", source_url: `http://${site.body.domain}/urls.csv`, region: ["fr"], url_root: "/", exclude_ext: null, variations: null, content_types: null, call_limit: null };
    const estimate = (schedule?: string | null) => api("POST", `/api/dashboard/sites/${site.body.id}/boost-estimate`, { headers, body: schedule === undefined ? draft : { ...draft, schedule } });

    const hourly = await estimate("0 * * * *");
    expect(hourly.status).toBe(200);
    expect(hourly.body.calls).toBe(2);
    expect(hourly.body.calls_per_month % 2).toBe(0);
    expect(Math.abs(hourly.body.calls_per_month / 2 - runsInMonth("0 * * * *"))).toBeLessThanOrEqual(1);
    expect(hourly.body.monthly_quota).toBe(MONTHLY_QUOTA);
    for (const schedule of [undefined, null, "", "0 3 * *", "nonsense"]) {
      const answer = await estimate(schedule);
      expect(answer.status, String(schedule)).toBe(200);
      expect(answer.body, String(schedule)).toMatchObject({ calls: 2, calls_per_month: null });
    }
  });
});
