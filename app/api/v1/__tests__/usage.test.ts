import { describe, expect, it } from "vitest";
import { occurrencesBetween } from "@/lib/core/schedule";
import { api, createValidatedSite, newKey, serveSite } from "./support/api";

// What a customer spent, day by day, against the quota, and what the schedules will still spend.

const today = () => new Date().toISOString().slice(0, 10);

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
