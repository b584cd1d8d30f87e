import { beforeAll, describe, expect, it } from "vitest";
import { api, createValidatedSite, newKey } from "./support/api";

// GET /v1/sites/{siteId}/freshness through the API: the hours asked for, its bounds and who may read
// it. The figures themselves, hour by hour against what the runs did, are checked in
// lib/freshness/history.test.ts, where time can be moved.

let key: string;
beforeAll(async () => {
  key = await newKey();
});

const HOUR = 3_600_000;

describe("GET /v1/sites/{siteId}/freshness", () => {
  it("answers each ended hour of the last 7 days by default, every figure present", async () => {
    const site = await createValidatedSite(key);
    const answer = await api("GET", `/v1/sites/${site.id}/freshness`, { key });
    expect(answer.status).toBe(200);
    expect(answer.body.site_id).toBe(site.id);
    const span = Date.parse(answer.body.to) - Date.parse(answer.body.from);
    expect(span).toBeGreaterThan(7 * 24 * HOUR - 2 * HOUR);
    expect(span).toBeLessThanOrEqual(7 * 24 * HOUR + HOUR);
    // Only hours that have ended: the last one ends at most now.
    expect(Date.parse(answer.body.to)).toBeLessThanOrEqual(Date.now());
    expect(answer.body.hours.length).toBeGreaterThan(0);
    for (const hour of answer.body.hours) expect(hour).toMatchObject({ hour: expect.any(String), urls_known: 0, urls_fresh: 0, calls: 0, hits: 0, regions: [] });
    expect(answer.body.fresh_share).toBeNull();
  });

  it("takes from and to, and refuses a span over 31 days or an empty one with 422, another account's site with 404, a key without runs:read with 403", async () => {
    const site = await createValidatedSite(key);
    const to = new Date(Math.floor(Date.now() / HOUR) * HOUR);
    const from = new Date(to.getTime() - 3 * HOUR);
    const three = await api("GET", `/v1/sites/${site.id}/freshness?from=${from.toISOString()}&to=${to.toISOString()}`, { key });
    expect(three.status).toBe(200);
    expect(three.body.hours.map((hour: { hour: string }) => hour.hour)).toEqual([0, 1, 2].map((i) => new Date(from.getTime() + i * HOUR).toISOString()));
    const long = await api("GET", `/v1/sites/${site.id}/freshness?from=${new Date(to.getTime() - 32 * 24 * HOUR).toISOString()}&to=${to.toISOString()}`, { key });
    expect(long.status).toBe(422);
    expect((await api("GET", `/v1/sites/${site.id}/freshness?from=${to.toISOString()}&to=${from.toISOString()}`, { key })).status).toBe(422);
    expect((await api("GET", `/v1/sites/${site.id}/freshness?from=yesterday`, { key })).status).toBe(422);
    expect((await api("GET", `/v1/sites/${site.id}/freshness`, { key: await newKey() })).status).toBe(404);
    expect((await api("GET", `/v1/sites/${site.id}/freshness`, { key: await newKey("sites:read") })).status).toBe(403);
  });
});
