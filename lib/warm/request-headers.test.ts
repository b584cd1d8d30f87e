import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeOutboundAgent } from "@/lib/fetch/agent";
import { requestHeaders, warmCall } from "./call";
import { PLAIN_REQUEST, type RunRequest } from "./run-request";
import { BROWSER_REQUESTS } from "./user-agents";

const call = (overrides: Partial<Parameters<typeof requestHeaders>[0]> = {}) => ({ url: "https://shop.test/p", user_agent: "desktop", language: null, ...overrides });
const request: RunRequest = {
  ...PLAIN_REQUEST,
  siteHost: "shop.test",
  headers: { "x-preview": "1" },
  cookies: { consent: "all", currency: "EUR" },
  authorization: "Basic c3RhZ2U6c2VjcmV0",
  cookieSets: { USD: { currency: "USD" }, none: {} },
};

describe("a call's headers", () => {
  it("are its browser's for a page load: Chrome's client hints and zstd, Safari's br without client hints", () => {
    const chrome = requestHeaders(call(), PLAIN_REQUEST);
    expect(chrome).toMatchObject({ "user-agent": BROWSER_REQUESTS.desktop.userAgent, "sec-ch-ua-mobile": "?0", "sec-fetch-dest": "document", "accept-encoding": "gzip, deflate, br, zstd" });
    expect(chrome["sec-ch-ua"]).toMatch(/"Google Chrome";v="\d+"/);
    expect(chrome["accept-language"]).toBeUndefined();
    const safari = requestHeaders(call({ user_agent: "mobile", language: "fr-FR" }), PLAIN_REQUEST);
    expect(safari).toMatchObject({ "accept-encoding": "gzip, deflate, br", "accept-language": "fr-FR,fr;q=0.9" });
    expect(Object.keys(safari).some((name) => name.startsWith("sec-ch-"))).toBe(false);
  });

  it("send an encoding variant exactly, and a custom agent with a generic browser's headers", () => {
    expect(requestHeaders(call({ encoding: "identity" }), PLAIN_REQUEST)["accept-encoding"]).toBe("identity");
    expect(requestHeaders(call({ user_agent: "mobile", encoding: "zstd" }), PLAIN_REQUEST)["accept-encoding"]).toBe("zstd");
    const custom = requestHeaders(call({ user_agent: "ShopApp/3.1" }), PLAIN_REQUEST);
    expect(custom["user-agent"]).toBe("ShopApp/3.1");
    expect(custom["sec-ch-ua"]).toBeUndefined();
  });

  it("add the profile: its headers, its cookies with the call's set winning, Basic auth to the site's host and its www only", () => {
    expect(requestHeaders(call({ cookie_set: "USD" }), request)).toMatchObject({ "x-preview": "1", cookie: "consent=all; currency=USD", authorization: request.authorization });
    expect(requestHeaders(call({ cookie_set: "none" }), request).cookie).toBe("consent=all; currency=EUR");
    expect(requestHeaders(call({ url: "https://www.shop.test/p" }), request).authorization).toBe(request.authorization);
    expect(requestHeaders(call({ url: "https://cdn.example.net/p" }), request).authorization).toBeUndefined();
    expect(requestHeaders(call({ cookie_set: "USD" }), { ...PLAIN_REQUEST, cookieSets: request.cookieSets }).cookie).toBe("currency=USD");
  });
});

describe("a warming call redirected to another origin", () => {
  // Two local origins: the site's, which redirects, and another one, which tells what it was sent.
  const seen: http.IncomingHttpHeaders[] = [];
  const other = http.createServer((req, res) => {
    seen.push(req.headers);
    res.end("other");
  });
  const site = http.createServer((req, res) => {
    seen.push(req.headers);
    if (req.url === "/moved") res.writeHead(302, { location: `http://127.0.0.1:${(other.address() as AddressInfo).port}/landing` }).end();
    else res.end("site");
  });
  const listen = (server: http.Server) => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  beforeAll(async () => {
    process.env.PREHEAT_ALLOW_PRIVATE_NETWORK = "true";
    await Promise.all([listen(site), listen(other)]);
  });
  afterAll(async () => {
    delete process.env.PREHEAT_ALLOW_PRIVATE_NETWORK;
    await closeOutboundAgent();
    await Promise.all([site, other].map((server) => new Promise((resolve) => server.close(resolve))));
  });

  it("sends the profile's headers, cookies and Basic auth to the site only; the other origin gets the browser's headers alone", async () => {
    const siteHost = `127.0.0.1:${(site.address() as AddressInfo).port}`;
    const outcome = await warmCall(call({ url: `http://${siteHost}/moved` }), "fr", { ...request, siteHost });
    expect(outcome.status).toBe(200);
    const [atSite, atOther] = seen;
    expect(atSite).toMatchObject({ "x-preview": "1", cookie: "consent=all; currency=EUR", authorization: request.authorization });
    expect(atOther).toBeDefined();
    expect(atOther!["user-agent"]).toBe(BROWSER_REQUESTS.desktop.userAgent);
    expect(atOther!["x-preview"]).toBeUndefined();
    expect(atOther!.cookie).toBeUndefined();
    expect(atOther!.authorization).toBeUndefined();
  });
});
