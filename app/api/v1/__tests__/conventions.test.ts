import { beforeAll, describe, expect, it } from "vitest";
import { ERROR_CODES } from "@/lib/core/error-codes";
import { api, baseUrl, createSite, createValidatedSite, newKey } from "./support/api";

// Conventions every answer follows: a documented `code` on every error, an X-Request-Id on every answer.

let key: string;

beforeAll(async () => {
  key = await newKey();
});

describe("error codes", () => {
  it("name each kind of error with its documented code and status", async () => {
    const site = await createSite(key);
    const validated = await createValidatedSite(key);
    const cases: [string, () => ReturnType<typeof api>, keyof typeof ERROR_CODES][] = [
      ["a wrong key", () => api("GET", "/v1/sites", { key: "phk_wrong" }), "invalid_api_key"],
      ["a key without the scope", async () => api("GET", "/v1/sites", { key: await newKey("runs:read") }), "insufficient_scope"],
      ["another account's site", async () => api("GET", `/v1/sites/${site.id}`, { key: await newKey() }), "not_found"],
      ["an unknown endpoint", () => api("GET", "/v1/nothing-here", { key }), "not_found"],
      ["a method the path does not take", () => api("DELETE", "/v1/me", { key }), "method_not_allowed"],
      ["the same site twice", () => api("POST", "/v1/sites", { key, body: { domain: site.domain } }), "duplicate_site"],
      ["a warm on a site not validated", () => api("POST", `/v1/sites/${site.id}/warm`, { key, body: { urls: [`https://${site.domain}/`] } }), "site_not_validated"],
      ["a body that is not JSON", () => api("POST", "/v1/sites", { key, rawBody: "{nope" }), "invalid_json"],
      ["an invalid field", () => api("POST", "/v1/sites", { key, body: { domain: "not a domain" } }), "validation_failed"],
      ["a body over the limit", () => api("POST", "/v1/sites", { key, rawBody: JSON.stringify({ domain: "x".repeat(2 * 1024 * 1024) }) }), "payload_too_large"],
    ];
    for (const [label, request, code] of cases) {
      const response = await request();
      expect(response.body, label).toMatchObject({ code, error: expect.any(String) });
      expect(response.status, label).toBe(ERROR_CODES[code].status);
    }
    const sitemap = await api("POST", `/v1/sites/${validated.id}/sitemaps`, { key, body: { url: `https://${validated.domain}/sitemap.xml` } });
    const again = await api("POST", `/v1/sites/${validated.id}/sitemaps`, { key, body: { url: `https://${validated.domain}/sitemap.xml` } });
    expect(sitemap.status).toBe(201);
    expect(again).toMatchObject({ status: 409, body: { code: "duplicate_sitemap" } });
  });
});

describe("X-Request-Id", () => {
  it("is on every answer: the caller's own when it is a sensible one, otherwise a new one", async () => {
    for (const path of ["/v1/me", "/v1/sites", "/v1/openapi.json", "/v1/nothing-here"]) {
      const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
      expect(response.headers.get("x-request-id"), path).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
    }
    const own = await fetch(`${baseUrl}/v1/me`, { headers: { authorization: `Bearer ${key}`, "x-request-id": "ci-run_42.7" } });
    expect(own.headers.get("x-request-id")).toBe("ci-run_42.7");
    for (const bad of ["has space", "x".repeat(129), "new\u00e9line"]) {
      const response = await fetch(`${baseUrl}/v1/me`, { headers: { authorization: `Bearer ${key}`, "x-request-id": bad } }).catch(() => null);
      if (!response) continue; // a header value fetch itself refuses to send
      expect(response.headers.get("x-request-id")).not.toBe(bad);
      expect(response.headers.get("x-request-id")).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
    }
    const a = await fetch(`${baseUrl}/v1/me`, { headers: { authorization: `Bearer ${key}` } });
    const b = await fetch(`${baseUrl}/v1/me`, { headers: { authorization: `Bearer ${key}` } });
    expect(a.headers.get("x-request-id")).not.toBe(b.headers.get("x-request-id"));
  });
});
