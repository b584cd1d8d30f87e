import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { addSitemap, api, createSite, createValidatedSite, newKey, uniqueDomain } from "./support/api";

let key: string;

beforeAll(async () => {
  key = await newKey();
});

const withKey = (idempotencyKey: string) => ({ "idempotency-key": idempotencyKey });
const quotaUsed = async (owner: string) => (await api("GET", "/v1/me", { key: owner })).body.quota.used as number;

describe("Idempotency-Key", () => {
  it("replays the first answer of a retried warm: one run, the quota reserved once", async () => {
    const site = await createValidatedSite(key);
    const body = { urls: [`https://${site.domain}/`, `https://${site.domain}/shoes`] };
    const headers = withKey(randomUUID());
    const before = await quotaUsed(key);
    const first = await api("POST", `/v1/sites/${site.id}/warm`, { key, body, headers });
    const retry = await api("POST", `/v1/sites/${site.id}/warm`, { key, body: { urls: [...body.urls] }, headers });
    expect(first.status).toBe(202);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    expect(retry.status).toBe(202);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    const runs = await api("GET", `/v1/sites/${site.id}/warm-runs`, { key });
    expect(runs.body.data.map((run: { id: number }) => run.id)).toEqual([first.body.run_id]);
    expect((await quotaUsed(key)) - before).toBe(2);
  });

  it("refuses the same key with another body (422 idempotency_conflict) and creates nothing", async () => {
    const headers = withKey(randomUUID());
    const domain = uniqueDomain("idem");
    const first = await api("POST", "/v1/sites", { key, body: { domain }, headers });
    const other = await api("POST", "/v1/sites", { key, body: { domain: uniqueDomain("other") }, headers });
    expect(first.status).toBe(201);
    expect(other).toMatchObject({ status: 422, body: { code: "idempotency_conflict" } });
    const sites = await api("GET", "/v1/sites?limit=100", { key });
    expect(sites.body.data.filter((site: { domain: string }) => site.domain !== domain && site.domain.startsWith("other-"))).toEqual([]);
  });

  it("compares JSON bodies by value: another key order or spacing is the same request", async () => {
    const headers = withKey(randomUUID());
    const domain = uniqueDomain("spacing");
    const first = await api("POST", "/v1/sites", { key, rawBody: JSON.stringify({ domain }), headers });
    const again = await api("POST", "/v1/sites", { key, rawBody: `{ "domain" :  "${domain}" }`, headers });
    expect(again).toMatchObject({ status: 201, body: { id: first.body.id } });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
  });

  it("lets two concurrent requests with one key create one boost run", async () => {
    const site = await createValidatedSite(key);
    const boost = await api("POST", `/v1/sites/${site.id}/boosts`, { key, body: { name: "Twice", source_type: "csv", source_url: `http://${site.domain}/urls.csv`, region: ["fr"] } });
    const headers = withKey(randomUUID());
    const answers = await Promise.all(Array.from({ length: 6 }, () => api("POST", `/v1/boosts/${boost.body.id}/run`, { key, headers })));
    const runIds = new Set(answers.filter((answer) => answer.status === 202).map((answer) => answer.body.run_id));
    expect(runIds.size).toBe(1);
    for (const answer of answers) expect([202, 409]).toContain(answer.status);
    for (const answer of answers.filter((a) => a.status === 409)) expect(answer.body.code).toBe("idempotency_in_progress");
    const runs = await api("GET", `/v1/runs?boost_id=${boost.body.id}`, { key });
    expect(runs.body.total).toBe(1);
  });

  it("keeps only successes: a refused request may be sent again with its key", async () => {
    const site = await createSite(key);
    const headers = withKey(randomUUID());
    const body = { urls: [`https://${site.domain}/`] };
    const refused = await api("POST", `/v1/sites/${site.id}/warm`, { key, body, headers });
    expect(refused.body.code).toBe("site_not_validated");
    const again = await api("POST", `/v1/sites/${site.id}/warm`, { key, body, headers });
    expect(again.body.code).toBe("site_not_validated");
    expect(again.headers.get("idempotent-replayed")).toBeNull();
  });

  it("belongs to the account: another account's same key creates its own", async () => {
    const headers = withKey(randomUUID());
    const mine = await api("POST", "/v1/sites", { key, body: { domain: uniqueDomain("mine") }, headers });
    const theirs = await api("POST", "/v1/sites", { key: await newKey(), body: { domain: uniqueDomain("theirs") }, headers });
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  it("never shows a secret again: the replay of a webhook's or a deploy hook's creation answers without it", async () => {
    const webhookBody = { url: "https://hooks.example.org/preheat", events: ["run.failed"] };
    const webhookHeaders = withKey(randomUUID());
    const webhook = await api("POST", "/v1/webhooks", { key, body: webhookBody, headers: webhookHeaders });
    const webhookReplay = await api("POST", "/v1/webhooks", { key, body: webhookBody, headers: webhookHeaders });
    expect(webhook.body.secret).toMatch(/^whsec_/);
    expect(webhookReplay.status).toBe(201);
    expect(webhookReplay.headers.get("idempotent-replayed")).toBe("true");
    const { secret, ...webhookWithoutSecret } = webhook.body;
    expect(webhookReplay.body).toEqual(webhookWithoutSecret);
    expect(JSON.stringify(webhookReplay.body)).not.toContain(secret);

    const site = await createSite(key);
    const sitemap = await addSitemap(key, site.id, `https://${site.domain}/sitemap.xml`);
    const boost = await api("POST", `/v1/sites/${site.id}/boosts`, { key, body: { name: "Deploys", source_type: "sitemap", sitemap_ids: [sitemap.id], region: ["fr"] } });
    const hookHeaders = withKey(randomUUID());
    const hook = await api("POST", `/v1/boosts/${boost.body.id}/hooks`, { key, body: { name: "CI" }, headers: hookHeaders });
    const hookReplay = await api("POST", `/v1/boosts/${boost.body.id}/hooks`, { key, body: { name: "CI" }, headers: hookHeaders });
    expect(hook.body.url).toMatch(/\/v1\/hooks\/phd_/);
    expect(hookReplay.status).toBe(201);
    expect(hookReplay.headers.get("idempotent-replayed")).toBe("true");
    const { url, ...hookWithoutUrl } = hook.body;
    expect(hookReplay.body).toEqual(hookWithoutUrl);
    expect(JSON.stringify(hookReplay.body)).not.toContain(url.split("/").pop());
    // One hook was created, and it still answers: the replay revoked nothing.
    expect((await api("GET", `/v1/boosts/${boost.body.id}/hooks`, { key })).body.total).toBe(1);
  });

  it("refuses a malformed key (422) and ignores the header on operations that create nothing", async () => {
    const bad = await api("POST", "/v1/sites", { key, body: { domain: uniqueDomain() }, headers: withKey("x".repeat(256)) });
    expect(bad).toMatchObject({ status: 422, body: { code: "validation_failed" } });
    const headers = withKey(randomUUID());
    const a = await api("GET", "/v1/sites", { key, headers });
    const b = await api("GET", "/v1/sites", { key, headers });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.headers.get("idempotent-replayed")).toBeNull();
  });
});
