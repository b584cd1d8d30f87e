import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createValidatedSite, newKey, serveSite } from "./support/api";

type Received = { path: string; headers: Record<string, string>; body: string };
const received: Received[] = [];
/** Receiver paths answering 500 to their first N deliveries. */
const failFirst = new Map<string, number>();
let receiver: http.Server;
let receiverUrl: string;
let key: string;

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const path = req.url ?? "";
      received.push({ path, headers: req.headers as Record<string, string>, body });
      const seen = received.filter((r) => r.path === path).length;
      res.writeHead(seen <= (failFirst.get(path) ?? 0) ? 500 : 200).end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  key = await newKey();
});

afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
});

async function until<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const deliveriesTo = (path: string) => received.filter((r) => r.path === path);

async function warmAndWait(owner: string, urls: (domain: string) => string[]) {
  const site = await createValidatedSite(owner);
  await serveSite(site.domain, { routes: {}, fallback: { status: 200, headers: { "x-cache": "HIT" } } });
  const warm = await api("POST", `/v1/sites/${site.id}/warm`, { key: owner, body: { urls: urls(site.domain), region: ["fr"] } });
  expect(warm.status).toBe(202);
  const run = await until(async () => {
    const read = await api("GET", `/v1/runs/${warm.body.run_id}`, { key: owner });
    return ["done", "failed", "paused"].includes(read.body.status) ? read.body : undefined;
  });
  return { site, run };
}

describe("webhooks", () => {
  it("are created with a secret shown once, listed, read, updated and deleted", async () => {
    const created = await api("POST", "/v1/webhooks", { key, body: { url: `${receiverUrl}/crud`, events: ["run.completed", "run.failed"], description: "CI" } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.any(Number), url: `${receiverUrl}/crud`, events: ["run.completed", "run.failed"], format: "standard", enabled: true, description: "CI" });
    expect(created.body.secret).toMatch(/^whsec_/);
    const read = await api("GET", `/v1/webhooks/${created.body.id}`, { key });
    expect(read.status).toBe(200);
    expect(read.body.secret).toBeUndefined();
    const list = await api("GET", "/v1/webhooks", { key });
    expect(list.body.data.map((w: { id: number }) => w.id)).toContain(created.body.id);
    expect(JSON.stringify(list.body)).not.toContain(created.body.secret);
    const updated = await api("PATCH", `/v1/webhooks/${created.body.id}`, { key, body: { events: ["sitemap.failed"], enabled: false } });
    expect(updated.body).toMatchObject({ events: ["sitemap.failed"], enabled: false, url: `${receiverUrl}/crud` });
    expect((await api("DELETE", `/v1/webhooks/${created.body.id}`, { key })).status).toBe(204);
    expect((await api("GET", `/v1/webhooks/${created.body.id}`, { key })).status).toBe(404);
  });

  it.each([
    ["no URL", { events: ["run.completed"] }],
    ["a URL that is not http(s)", { url: "ftp://example.com/x", events: ["run.completed"] }],
    ["no event", { url: "https://example.com/x", events: [] }],
    ["an unknown event", { url: "https://example.com/x", events: ["run.exploded"] }],
    ["an unknown format", { url: "https://example.com/x", events: ["run.completed"], format: "teams" }],
  ])("refuse %s with 422 and create nothing", async (_name, body) => {
    const owner = await newKey();
    const response = await api("POST", "/v1/webhooks", { key: owner, body });
    expect(response.status).toBe(422);
    expect(response.body.code).toBe("validation_failed");
    expect((await api("GET", "/v1/webhooks", { key: owner })).body.total).toBe(0);
  });

  it("need webhooks:write to create and webhooks:read to list", async () => {
    const reader = await newKey("webhooks:read");
    const refused = await api("POST", "/v1/webhooks", { key: reader, body: { url: "https://example.com/x", events: ["run.completed"] } });
    expect(refused.status).toBe(403);
    expect(refused.body.required_scope).toBe("webhooks:write");
    expect((await api("GET", "/v1/webhooks", { key: reader })).status).toBe(200);
    expect((await api("GET", "/v1/webhooks", { key: await newKey("runs:read") })).body.required_scope).toBe("webhooks:read");
  });

  it("deliver run.completed once, signed, with the run as the API returns it, and retry after a 500", async () => {
    const owner = await newKey();
    failFirst.set("/runs", 1);
    const hook = await api("POST", "/v1/webhooks", { key: owner, body: { url: `${receiverUrl}/runs`, events: ["run.completed"] } });
    const { run } = await warmAndWait(owner, (domain) => [`http://${domain}/a`, `http://${domain}/b`]);
    const [first, second] = await until(() => (deliveriesTo("/runs").length >= 2 ? deliveriesTo("/runs") : undefined));
    expect(first!.headers["webhook-id"]).toBe(second!.headers["webhook-id"]);
    const event = new Webhook(hook.body.secret).verify(second!.body, second!.headers) as { type: string; data: unknown };
    expect(event.type).toBe("run.completed");
    expect(event.data).toEqual((await api("GET", `/v1/runs/${run.id}`, { key: owner })).body);
    const deliveries = await api("GET", `/v1/webhooks/${hook.body.id}/deliveries`, { key: owner });
    expect(deliveries.body.total).toBe(2);
    expect(deliveries.body.data[0]).toMatchObject({ event: "run.completed", attempt: 2, status_code: 200, error: null, duration_ms: expect.any(Number), created_at: expect.any(String) });
    expect(deliveries.body.data[1]).toMatchObject({ attempt: 1, status_code: 500, error: expect.stringContaining("500") });
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(deliveriesTo("/runs")).toHaveLength(2);
  });

  it("send a test event now and record it among the deliveries", async () => {
    const owner = await newKey();
    const hook = await api("POST", "/v1/webhooks", { key: owner, body: { url: `${receiverUrl}/test`, events: ["run.failed"] } });
    const test = await api("POST", `/v1/webhooks/${hook.body.id}/test`, { key: owner });
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({ event: "webhook.test", attempt: 1, status_code: 200, error: null });
    const [delivery] = deliveriesTo("/test");
    expect(new Webhook(hook.body.secret).verify(delivery!.body, delivery!.headers)).toMatchObject({ type: "webhook.test" });
    expect((await api("GET", `/v1/webhooks/${hook.body.id}/deliveries`, { key: owner })).body.data).toEqual([test.body]);
  });

  it("are 10 per account at most: the 11th is 403 webhook_limit, even when the 10th and 11th are asked for at once", async () => {
    const owner = await newKey();
    const create = (path: string) => api("POST", "/v1/webhooks", { key: owner, body: { url: `https://hooks.example.org/${path}`, events: ["run.completed"] } });
    for (let i = 1; i <= 9; i++) expect((await create(`limit-${i}`)).status).toBe(201);
    const racing = await Promise.all([create("limit-10"), create("limit-11")]);
    expect(racing.map((r) => r.status).sort()).toEqual([201, 403]);
    const refused = racing.find((r) => r.status === 403)!;
    expect(refused.body).toEqual({ code: "webhook_limit", error: "An account has at most 10 webhooks: delete one first." });
    expect((await api("GET", "/v1/webhooks", { key: owner })).body.total).toBe(10);
    expect((await create("limit-12")).status).toBe(403);
    // Another account has its own ten.
    expect((await api("POST", "/v1/webhooks", { key: await newKey(), body: { url: "https://hooks.example.org/limit-12", events: ["run.completed"] } })).status).toBe(201);
  });

  it("are one per URL: the same URL again, however it is written, is 409 duplicate_webhook, and so is a PATCH onto another's URL", async () => {
    const owner = await newKey();
    const create = (url: string) => api("POST", "/v1/webhooks", { key: owner, body: { url, events: ["run.completed"] } });
    const first = await create("https://Hooks.Example.org:443");
    expect(first.status).toBe(201);
    const twice = await Promise.all([create("https://hooks.example.org/"), create("HTTPS://HOOKS.EXAMPLE.ORG/")]);
    for (const again of twice) {
      expect(again.status).toBe(409);
      expect(again.body.code).toBe("duplicate_webhook");
      expect(again.body.error).toMatch(/^This account already has a webhook to .+: change that one instead\.$/);
    }
    const routed = await create("https://hooks.example.org/?channel=deploys");
    expect(routed.status).toBe(201);
    const moved = await api("PATCH", `/v1/webhooks/${routed.body.id}`, { key: owner, body: { url: "https://hooks.example.org" } });
    expect(moved).toMatchObject({ status: 409, body: { code: "duplicate_webhook" } });
    expect((await api("PATCH", `/v1/webhooks/${routed.body.id}`, { key: owner, body: { url: "https://hooks.example.org/?channel=ops" } })).status).toBe(200);
    expect((await api("GET", "/v1/webhooks", { key: owner })).body.total).toBe(2);
  });

  it("take one test event every 10 s per webhook: another is 429 rate_limited with Retry-After", async () => {
    const owner = await newKey();
    const hook = await api("POST", "/v1/webhooks", { key: owner, body: { url: `${receiverUrl}/tested`, events: ["run.failed"] } });
    expect((await api("POST", `/v1/webhooks/${hook.body.id}/test`, { key: owner })).status).toBe(200);
    const again = await api("POST", `/v1/webhooks/${hook.body.id}/test`, { key: owner });
    expect(again.status).toBe(429);
    expect(again.body.code).toBe("rate_limited");
    const retryAfter = Number(again.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(10);
    expect(again.body.error).toBe(`A webhook takes one test event every 10 s: try again in ${retryAfter} s.`);
    expect(deliveriesTo("/tested")).toHaveLength(1);
    expect((await api("GET", `/v1/webhooks/${hook.body.id}/deliveries`, { key: owner })).body.total).toBe(1);
  });

  it("retry an event 3 times only while the receiver has never answered 2xx", async () => {
    const owner = await newKey();
    failFirst.set("/never", Number.POSITIVE_INFINITY);
    const hook = await api("POST", "/v1/webhooks", { key: owner, body: { url: `${receiverUrl}/never`, events: ["run.completed"] } });
    await warmAndWait(owner, (domain) => [`http://${domain}/a`]);
    const attempts = await until(async () => {
      const page = await api("GET", `/v1/webhooks/${hook.body.id}/deliveries`, { key: owner });
      return page.body.total >= 4 ? page.body.data : undefined;
    });
    expect(attempts.map((d: { attempt: number }) => d.attempt)).toEqual([4, 3, 2, 1]);
    // A fifth would have come 8 to 16 s after the fourth (PREHEAT_WEBHOOK_RETRY_BASE_SECONDS is 1 here): none comes.
    await new Promise((resolve) => setTimeout(resolve, 17_000));
    expect(deliveriesTo("/never")).toHaveLength(4);
  }, 90_000);

  it("post a short summary with a link to a Slack-format webhook", async () => {
    const owner = await newKey();
    await api("POST", "/v1/webhooks", { key: owner, body: { url: `${receiverUrl}/slack`, events: ["run.completed"], format: "slack" } });
    const { run } = await warmAndWait(owner, (domain) => [`http://${domain}/`]);
    const [message] = await until(() => (deliveriesTo("/slack").length ? deliveriesTo("/slack") : undefined));
    const { text } = JSON.parse(message!.body);
    // The site's first warm, named as the dashboard names it; the link goes by its id.
    expect(text).toContain("Preheat: warm run 1 (on-demand warm)");
    expect(text).toContain("completed: 1 call, 1 cache hit, 0 failed");
    expect(text).toMatch(new RegExp(`<http[^|]+/runs/${run.id}\\|Open the run>`));
  });
});

describe("deploy hooks", () => {
  async function slowBoost(owner: string) {
    const site = await createValidatedSite(owner);
    await serveSite(site.domain, {
      routes: { "/urls.csv": { body: `url\nhttp://${site.domain}/slow\n` } },
      // Long enough for a burst of calls to arrive while the first run warms.
      fallback: { status: 200, delayMs: 6000 },
    });
    const boost = await api("POST", `/v1/sites/${site.id}/boosts`, { key: owner, body: { name: "On deploy", source_type: "csv", source_url: `http://${site.domain}/urls.csv`, region: ["fr"] } });
    expect(boost.status).toBe(201);
    return boost.body as { id: number };
  }

  it("coalesce a burst of calls into one running run and at most one follow-up, which runs after it", async () => {
    const owner = await newKey();
    const boost = await slowBoost(owner);
    const created = await api("POST", `/v1/boosts/${boost.id}/hooks`, { key: owner, body: { name: "CI" } });
    expect(created.status).toBe(201);
    expect(created.body.url).toMatch(/\/v1\/hooks\/phd_[\w-]+$/);
    const path = new URL(created.body.url).pathname;
    const first = await api("POST", path);
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ run_id: expect.any(Number), status: "pending", coalesced: false });
    await until(async () => ((await api("GET", `/v1/runs/${first.body.run_id}`, { key: owner })).body.status === "running" ? true : undefined));
    const burst = await Promise.all(Array.from({ length: 10 }, () => api("POST", path)));
    expect(burst.map((r) => r.status)).toEqual(Array(10).fill(202));
    expect(burst.every((r) => r.body.coalesced)).toBe(true);
    const followUps = new Set(burst.map((r) => r.body.run_id));
    expect(followUps.size).toBe(1);
    const [followUp] = [...followUps];
    expect(followUp).not.toBe(first.body.run_id);
    const runs = await api("GET", `/v1/runs?boost_id=${boost.id}`, { key: owner });
    expect(runs.body.total).toBe(2);
    const ended = async (id: number) =>
      until(async () => {
        const run = (await api("GET", `/v1/runs/${id}`, { key: owner })).body;
        return ["done", "failed", "paused"].includes(run.status) ? run : undefined;
      });
    const [before, after] = [await ended(first.body.run_id), await ended(followUp)];
    expect(before.status).toBe("done");
    expect(after.status).toBe("done");
    expect(new Date(after.started_at).getTime()).toBeGreaterThanOrEqual(new Date(before.finished_at).getTime());
  }, 60_000);

  it("are listed without their URL, refused without the right scope, and answer 404 once revoked", async () => {
    const owner = await newKey();
    const boost = await slowBoost(owner);
    const created = await api("POST", `/v1/boosts/${boost.id}/hooks`, { key: owner, body: {} });
    const list = await api("GET", `/v1/boosts/${boost.id}/hooks`, { key: owner });
    expect(list.body).toMatchObject({ total: 1, data: [{ id: created.body.id, boost_id: boost.id, name: null, prefix: expect.stringMatching(/^phd_/) }] });
    expect(JSON.stringify(list.body)).not.toContain(new URL(created.body.url).pathname.split("/").pop());
    expect((await api("POST", `/v1/boosts/${boost.id}/hooks`, { key: await newKey("boosts:read") })).status).toBe(403);
    expect((await api("DELETE", `/v1/boosts/${boost.id}/hooks/${created.body.id}`, { key: owner })).status).toBe(204);
    const revoked = await api("POST", new URL(created.body.url).pathname);
    expect(revoked.status).toBe(404);
    expect(revoked.body.error).toBe("Unknown or revoked hook.");
    expect((await api("POST", "/v1/hooks/phd_not-a-hook")).status).toBe(404);
  });
});
