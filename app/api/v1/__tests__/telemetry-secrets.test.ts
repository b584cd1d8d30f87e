import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { addSitemap, api, baseUrl, createSite, newKey, uniqueEmail } from "./support/api";

// What an operator's /metrics and log hold: route templates, never a path's secrets or its ids, and
// a bounded number of series however many unknown paths are asked for.

const metricsToken = inject("metricsToken");

async function scrape(): Promise<string> {
  const response = await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
  expect(response.status).toBe(200);
  return response.text();
}

/** The series of the request counter, e.g. `preheat_http_requests_total{operation="getSite",method="GET",status="404"}`. */
const requestSeries = (text: string) =>
  new Set(
    text
      .split("\n")
      .filter((line) => line.startsWith("preheat_http_requests_total{"))
      .map((line) => line.slice(0, line.lastIndexOf(" "))),
  );

/** The server's log, once the lines of the requests just made are written. */
async function serverLog(): Promise<string> {
  await new Promise((resolve) => setTimeout(resolve, 300));
  return readFileSync(inject("serverLog"), "utf8");
}

let key: string;
let hookToken: string;

beforeAll(async () => {
  key = await newKey();
  const site = await createSite(key);
  const sitemap = await addSitemap(key, site.id, `https://${site.domain}/sitemap.xml`);
  const boost = await api("POST", `/v1/sites/${site.id}/boosts`, { key, body: { name: "Deploys", source_type: "sitemap", sitemap_ids: [sitemap.id], region: ["fr"] } });
  const hook = await api("POST", `/v1/boosts/${boost.body.id}/hooks`, { key, body: {} });
  hookToken = (hook.body.url as string).split("/").pop()!;
});

describe("/metrics and the log", () => {
  it("never hold a hook token, a key or a sign-in token sent in a path, a query or a body", async () => {
    const signInToken = randomBytes(32).toString("hex");
    const signUpToken = randomBytes(32).toString("hex");
    const calls: [string, string, { key?: string; body?: unknown }?][] = [
      ["GET", `/v1/hooks/${hookToken}`],
      ["PUT", `/v1/hooks/${hookToken}?token=${hookToken}`],
      ["DELETE", `/v1/hooks/${hookToken}`],
      ["POST", `/v1/hooks/${hookToken}x`],
      ["GET", `/v1/sites?token=${hookToken}&key=${key}`, { key }],
      ["GET", `/v1/nothing/${hookToken}/${key}?token=${signInToken}`],
      ["GET", `/api/v1/sites/${hookToken}`, { key }],
      ["POST", "/v1/sites", { key, body: { domain: hookToken, token: signInToken } }],
      ["DELETE", `/api/dashboard/keys/${key}`],
      ["GET", `/api/dashboard/keys/${key}`],
      ["POST", "/api/dashboard/signup/confirm", { body: { token: signUpToken } }],
      ["GET", `/api/auth/callback/email?token=${signInToken}&email=${encodeURIComponent(uniqueEmail())}`],
      ["GET", `/mcp?token=${hookToken}`],
    ];
    for (const [method, path, options] of calls) {
      const response = await api(method, path, { ...options, headers: { "x-preheat-dashboard": "1" } });
      expect(response.status, `${method} ${path}`).toBeLessThan(500);
    }
    const metrics = await scrape();
    const log = await serverLog();
    for (const secret of [hookToken, key, signInToken, signUpToken]) {
      expect(metrics).not.toContain(secret);
      expect(log).not.toContain(secret);
    }
    // The 405s of the hook's route are labelled with its template.
    expect(metrics).toMatch(/^preheat_http_requests_total\{operation="\/v1\/hooks\/\{token\}",method="GET",status="405"\} \d+$/m);
    const lines = log.split("\n").filter((line) => line.includes('"msg":"request"'));
    expect(lines.some((line) => line.includes('"route":"/v1/hooks/{token}"') && line.includes('"status":405'))).toBe(true);
    expect(lines.some((line) => line.includes('"route":"/api/dashboard/keys/{keyId}"'))).toBe(true);
  });

  it("count 150 unknown paths, with or without a key, as one route: the series stay few", async () => {
    const before = requestSeries(await scrape());
    const paths = Array.from({ length: 150 }, (_, i) => `/v1/${randomBytes(6).toString("hex")}/${i}`);
    for (const [i, path] of paths.entries()) {
      const response = await api(i % 3 === 0 ? "POST" : "GET", path, { key: i % 2 ? key : i % 5 ? "phk_wrong" : undefined });
      expect(response).toMatchObject({ status: 404, body: { code: "not_found" } });
    }
    const text = await scrape();
    const added = [...requestSeries(text)].filter((series) => !before.has(series));
    // GET and POST 404s of `unmatched` at most (other files add their own series meanwhile).
    expect(added.filter((series) => !series.includes('operation="unmatched"')).filter((series) => paths.some((path) => series.includes(path.split("/")[2]!)))).toEqual([]);
    expect(added.filter((series) => series.includes('operation="unmatched"')).length).toBeLessThanOrEqual(2);
    for (const path of paths) expect(text).not.toContain(path.split("/")[2]);
    const log = await serverLog();
    for (const path of paths.slice(0, 10)) expect(log).not.toContain(path);
  });
});
