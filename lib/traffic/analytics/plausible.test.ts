import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FakePlausible, PLAUSIBLE_INVALID_KEY } from "./fake-apis";
import { AnalyticsError, readPlausible } from "./index";

const KEY = "plausible-stats-key-0123456789abcdef";
const plausible = new FakePlausible();
const saved: Record<string, string | undefined> = {};

function setEnv(vars: Record<string, string | undefined>) {
  for (const [name, value] of Object.entries(vars)) {
    if (!(name in saved)) saved[name] = process.env[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
}

beforeAll(async () => {
  setEnv({ PREHEAT_PLAUSIBLE_BASE_URL: await plausible.start(), PREHEAT_ALLOW_PRIVATE_NETWORK: "true", PREHEAT_CONNECT_TO: undefined });
});
afterAll(async () => {
  await plausible.stop();
  setEnv(saved);
});
beforeEach(() => {
  plausible.reset();
  plausible.sites.clear();
  setEnv({ PREHEAT_ALLOW_PRIVATE_NETWORK: "true", PREHEAT_PLAUSIBLE_BASE_URL: plausible.url });
});

/** n pages, /page-1 the most viewed (n views) down to /page-n (1 view). */
function pages(n: number): Record<string, number> {
  return Object.fromEntries(Array.from({ length: n }, (_, i) => [`/page-${i + 1}`, n - i]));
}

/** The AnalyticsError a read throws. */
async function failure(read: Promise<unknown>): Promise<AnalyticsError> {
  const error = await read.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AnalyticsError);
  return error as AnalyticsError;
}

const read = (limits = {}) => readPlausible({ siteId: "shop.example", apiKey: KEY }, limits);

describe("readPlausible", () => {
  it("reads every page of event:page by pageviews over 30 days, as the Stats API v2 documents it", async () => {
    plausible.sites.set("shop.example", { keys: [KEY], pages: pages(25) });
    const result = await read({ pageSize: 10 });
    expect(result.rows).toBe(25);
    expect(result.visits.size).toBe(25);
    expect(result.visits.get("/page-1")).toBe(25);
    expect(result.visits.get("/page-25")).toBe(1);

    expect(plausible.requests).toHaveLength(3);
    for (const [index, request] of plausible.requests.entries()) {
      expect(request.method).toBe("POST");
      expect(request.path).toBe("/api/v2/query");
      expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(request.headers["content-type"]).toBe("application/json");
      expect(JSON.parse(request.body)).toEqual({
        site_id: "shop.example",
        metrics: ["pageviews"],
        date_range: "30d",
        dimensions: ["event:page"],
        order_by: [
          ["pageviews", "desc"],
          ["event:page", "asc"],
        ],
        pagination: { limit: 10, offset: index * 10 },
      });
    }
  });

  it("asks for one more page when the last one was full, and stops on an empty one", async () => {
    plausible.sites.set("shop.example", { keys: [KEY], pages: pages(20) });
    const result = await read({ pageSize: 10 });
    expect(result.rows).toBe(20);
    expect(plausible.requests.map((request) => JSON.parse(request.body).pagination)).toEqual([
      { limit: 10, offset: 0 },
      { limit: 10, offset: 10 },
      { limit: 10, offset: 20 },
    ]);
  });

  it("reads the most viewed rows up to the cap, and no more", async () => {
    plausible.sites.set("shop.example", { keys: [KEY], pages: pages(40) });
    const result = await read({ pageSize: 10, maxRows: 15 });
    expect(result.rows).toBe(15);
    expect([...result.visits.keys()]).toEqual(Array.from({ length: 15 }, (_, i) => `/page-${i + 1}`));
    expect(plausible.requests.map((request) => JSON.parse(request.body).pagination)).toEqual([
      { limit: 10, offset: 0 },
      { limit: 5, offset: 10 },
    ]);
  });

  it("reads the site's production defaults in one request when it has fewer than 10,000 pages", async () => {
    plausible.sites.set("shop.example", { keys: [KEY], pages: pages(3) });
    expect((await read()).rows).toBe(3);
    expect(JSON.parse(plausible.requests[0]!.body).pagination).toEqual({ limit: 10_000, offset: 0 });
  });

  it("drops fragments, sums what they made one path, and leaves out what is no path (rows still counted)", async () => {
    plausible.sites.set("shop.example", {
      keys: [KEY],
      pages: { "/about": 10, "/about#team": 5, "(not set)": 7, "": 3, "https://elsewhere.example/x": 2, "/nul\u0000": 4, "/zero": 0, "/?q=1": 1 },
    });
    const result = await read();
    expect(result.rows).toBe(8);
    expect(Object.fromEntries(result.visits)).toEqual({ "/about": 15, "/?q=1": 1 });
  });

  it("says auth when Plausible refuses the key, never quoting the key", async () => {
    plausible.sites.set("shop.example", { keys: ["another-key"], pages: pages(3) });
    const error = await failure(read());
    expect(error.reason).toBe("auth");
    expect(error.message).toContain('"shop.example"');
    expect(error.message).toContain(PLAUSIBLE_INVALID_KEY);
    expect(error.message).not.toContain(KEY);
  });

  it("says auth for a site Plausible does not know: it answers 401 for both, and the message says so", async () => {
    plausible.sites.set("shop.example", { keys: [KEY], pages: pages(3) });
    const error = await failure(readPlausible({ siteId: "unknown.example", apiKey: KEY }));
    expect(error.reason).toBe("auth");
    expect(error.message).toMatch(/no access to a site of that id/);
  });

  it("says not_found on a 404 (no such site, or no Stats API at the address)", async () => {
    plausible.sites.set("shop.example", { keys: [KEY], pages: pages(3) });
    plausible.answerOn(1, { status: 404, body: { error: "Site does not exist" } });
    const error = await failure(read());
    expect(error.reason).toBe("not_found");
    expect(error.message).toContain("Site does not exist");
  });

  it("says auth when the key's account has no Stats API (402)", async () => {
    plausible.answerOn(1, {
      status: 402,
      body: {
        error:
          "The account that owns this API key does not have access to Stats API. Please make sure you're using the API key of a subscriber account and that the subscription plan includes Stats API",
      },
    });
    expect((await failure(read())).reason).toBe("auth");
  });

  it("says rate_limited on 429, with Retry-After's seconds when Plausible sends one", async () => {
    const words = "Too many API requests. Your API key is limited to 600 requests per hour. Please contact us to request more capacity.";
    plausible.answerOn(1, { status: 429, body: { error: words }, headers: { "retry-after": "120" } });
    const error = await failure(read());
    expect(error.reason).toBe("rate_limited");
    expect(error.retryAfterSeconds).toBe(120);
    expect(error.transient).toBe(true);
    expect(error.message).toContain(words);

    plausible.answerOn(1, { status: 429, body: { error: words } });
    const without = await failure(read());
    expect(without.reason).toBe("rate_limited");
    expect(without.retryAfterSeconds).toBeUndefined();
  });

  it("says unavailable on a 5xx, whatever its body", async () => {
    plausible.answerOn(1, { status: 500, body: "<html>Internal Server Error</html>" });
    expect((await failure(read())).reason).toBe("unavailable");
    plausible.answerOn(1, { status: 503, body: { error: "Service unavailable" } });
    const error = await failure(read());
    expect(error.reason).toBe("unavailable");
    expect(error.transient).toBe(true);
  });

  it("says malformed when Plausible refuses the query (400), quoting its reason", async () => {
    plausible.answerOn(1, { status: 400, body: { error: "#/pagination/limit: Invalid pagination" } });
    const error = await failure(read());
    expect(error.reason).toBe("malformed");
    expect(error.message).toContain("Invalid pagination");
    expect(error.transient).toBe(false);
  });

  it("says malformed on an answer not shaped as documented", async () => {
    plausible.sites.set("shop.example", { keys: [KEY], pages: pages(3) });
    for (const body of [
      "<!doctype html><title>Plausible</title>",
      '{"results": ',
      { data: [] },
      { results: [{ metrics: ["12"], dimensions: ["/"] }] },
      { results: [{ metrics: [-1], dimensions: ["/"] }] },
      { results: [{ metrics: [1.5], dimensions: ["/"] }] },
      { results: [{ metrics: [3], dimensions: [null] }] },
      { results: [{ metrics: [3] }] },
    ]) {
      plausible.answerOn(1, { status: 200, body });
      const error = await failure(read());
      expect(error.reason, JSON.stringify(body)).toBe("malformed");
    }
  });

  it("reads nothing when a later page fails: all or nothing", async () => {
    plausible.sites.set("shop.example", { keys: [KEY], pages: pages(25) });
    plausible.answerOn(2, { status: 502, body: "Bad Gateway" });
    const error = await failure(read({ pageSize: 10 }));
    expect(error.reason).toBe("unavailable");
    expect(plausible.requests).toHaveLength(2);

    plausible.answerOn(3, { status: 200, body: { results: [{ metrics: ["oops"], dimensions: ["/x"] }] } });
    expect((await failure(read({ pageSize: 10 }))).reason).toBe("malformed");
  });

  it("says unavailable when nothing answers, or not in time", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    setEnv({ PREHEAT_PLAUSIBLE_BASE_URL: `http://127.0.0.1:${port}` });
    expect((await failure(read())).reason).toBe("unavailable");

    setEnv({ PREHEAT_PLAUSIBLE_BASE_URL: plausible.url });
    plausible.answerOn(1, "hang");
    const slow = await failure(read({ timeoutMs: 300 }));
    expect(slow.reason).toBe("unavailable");
    expect(slow.message).toMatch(/did not answer within 0.3 s/);
  });

  it("goes through the address guard of lib/fetch, and follows no redirect with the key", async () => {
    // Another server: the guard judges each connection, and the pool may hold one to the first.
    const fresh = new FakePlausible();
    setEnv({ PREHEAT_ALLOW_PRIVATE_NETWORK: undefined, PREHEAT_PLAUSIBLE_BASE_URL: await fresh.start() });
    try {
      const refused = await failure(read());
      expect(refused.reason).toBe("unavailable");
      expect(refused.message).toMatch(/refused to connect/);
      expect(fresh.requests).toHaveLength(0);
    } finally {
      await fresh.stop();
    }
    setEnv({ PREHEAT_PLAUSIBLE_BASE_URL: plausible.url });

    setEnv({ PREHEAT_ALLOW_PRIVATE_NETWORK: "true" });
    plausible.answerOn(1, { status: 302, headers: { location: "http://127.0.0.1:9/api/v2/query" } });
    expect((await failure(read())).reason).toBe("unavailable");
  });

  it("refuses an empty site id or key without asking", async () => {
    expect((await failure(readPlausible({ siteId: " ", apiKey: KEY }))).reason).toBe("not_found");
    expect((await failure(readPlausible({ siteId: "shop.example", apiKey: "" }))).reason).toBe("auth");
    expect(plausible.requests).toHaveLength(0);
  });
});
