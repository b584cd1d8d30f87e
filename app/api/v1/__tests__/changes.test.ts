import { describe, expect, it } from "vitest";
import { api, createValidatedSite, newKey } from "./support/api";

// POST /v1/sites/{siteId}/changes through the server: 202 with the run they join, coalesced, and clear 4xx answers.

describe("POST /v1/sites/{siteId}/changes", () => {
  it("answers 202 with the run the changes join; a second request within the delay joins it; the run says changes", async () => {
    const key = await newKey();
    const prefix = (await api("GET", "/v1/me", { key })).body.api_key.prefix;
    const site = await createValidatedSite(key);
    const first = await api("POST", `/v1/sites/${site.id}/changes`, { key, body: { urls: [`http://${site.domain}/a`, `http://${site.domain}/b`], delay_seconds: 60 } });
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ url_count: 2, left_out: 0, status: "pending" });
    expect(new Date(first.body.warm_at).getTime()).toBeGreaterThan(Date.now() + 50_000);
    const second = await api("POST", `/v1/sites/${site.id}/changes`, { key, body: { urls: [`http://${site.domain}/b`, `http://${site.domain}/c`] } });
    expect(second.body).toMatchObject({ run_id: first.body.run_id, warm_at: first.body.warm_at });
    const run = await api("GET", `/v1/runs/${first.body.run_id}`, { key });
    expect(run.body).toMatchObject({ status: "pending", triggered_by: { kind: "changes", label: prefix } });
    // GET: the changes waiting, as the dashboard's Changes panel shows them.
    const waiting = await api("GET", `/v1/sites/${site.id}/changes`, { key });
    expect(waiting.status).toBe(200);
    expect(waiting.body).toEqual({
      waiting: expect.objectContaining({ run_id: first.body.run_id, warm_at: first.body.warm_at }),
      recent: [],
      default_delay_seconds: 30,
    });
    expect(waiting.body.waiting.urls).toHaveLength(3);
    expect((await api("GET", `/v1/sites/${site.id}/changes`, { key: await newKey() })).status).toBe(404);
  });

  it("a change sent just after the site's last changes run's delay, before its planning, opens the next run (202, not 500)", async () => {
    const key = await newKey();
    const site = await createValidatedSite(key);
    const first = await api("POST", `/v1/sites/${site.id}/changes`, { key, body: { urls: [`http://${site.domain}/one`], delay_seconds: 0 } });
    expect(first.status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = await api("POST", `/v1/sites/${site.id}/changes`, { key, body: { urls: [`http://${site.domain}/two`], delay_seconds: 0 } });
    expect(second.status, JSON.stringify(second.body)).toBe(202);
    expect(second.body.run_id).not.toBe(first.body.run_id);
  });

  it("refuses bad input with a clear 4xx and changes nothing", async () => {
    const key = await newKey();
    const site = await createValidatedSite(key);
    expect((await api("POST", `/v1/sites/${site.id}/changes`, { key, body: { urls: [] } })).status).toBe(422);
    expect((await api("POST", `/v1/sites/${site.id}/changes`, { key, body: { urls: ["http://elsewhere.test/a"] } })).status).toBe(422);
    expect((await api("POST", `/v1/sites/${site.id}/changes`, { key, body: { urls: [`http://${site.domain}/a`], delay_seconds: -1 } })).status).toBe(422);
    expect((await api("POST", `/v1/sites/${site.id}/changes`, { key, rawBody: "{not json" })).status).toBeGreaterThanOrEqual(400);
    expect((await api("POST", `/v1/sites/${site.id}/changes`, { key: await newKey(), body: { urls: [`http://${site.domain}/a`] } })).status).toBe(404);
    expect((await api("GET", `/v1/sites/${site.id}/warm-runs`, { key })).body.total).toBe(0);
    // The change profile: a boost of another site is refused.
    expect((await api("PATCH", `/v1/sites/${site.id}`, { key, body: { change_boost_id: 999_999 } })).status).toBe(422);
  });
});
