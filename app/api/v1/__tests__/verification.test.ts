import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { verify } from "web-bot-auth";
import { verifierFromJWK } from "web-bot-auth/crypto";
import { api, baseUrl, cli, createSite, createValidatedSite, newKey, originHeaders, serveSite } from "./support/api";

const SECRET = /^[\w-]{43}$/;
const IDENTIFYING = ["preheat-verification", "signature-agent", "signature-input", "signature"];

let key: string;
beforeAll(async () => {
  key = await newKey();
});

type Site = { id: number; domain: string; verification_secret: string };

/** Warms `path` of the site and answers the identifying headers its call carried to the origin. */
async function warmedHeaders(site: Site, path: string): Promise<Record<string, string | null>> {
  const warm = await api("POST", `/v1/sites/${site.id}/warm`, { key, body: { urls: [`http://${site.domain}${path}`], variations: { user_agents: ["bot"] } } });
  expect(warm.status).toBe(202);
  let found: Record<string, string | null> | undefined;
  await expect
    .poll(
      async () => {
        found = (await originHeaders(site.domain, IDENTIFYING)).find((entry) => entry.request === `GET ${path}`)?.headers;
        return Boolean(found);
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  // One warm of a site at a time: the next waits for this one's end.
  await expect.poll(async () => (await api("GET", `/v1/runs/${warm.body.run_id}`, { key })).body.status, { timeout: 20_000 }).not.toMatch(/^(pending|running)$/);
  return found!;
}

describe("the verification secret", () => {
  it("is in the site object from its creation, the same on every read", async () => {
    const site = await createSite(key);
    expect(site.verification_secret).toMatch(SECRET);
    expect((await api("GET", `/v1/sites/${site.id}`, { key })).body.verification_secret).toBe(site.verification_secret);
    const listed = (await api("GET", "/v1/sites?limit=100", { key })).body.data.find((s: Site) => s.id === site.id);
    expect(listed.verification_secret).toBe(site.verification_secret);
    expect((await createSite(key)).verification_secret).not.toBe(site.verification_secret);
  });

  it("is rotated with sites:write: 200 with the new value, which the site object shows from then on", async () => {
    const site = await createSite(key);
    const readOnly = await newKey("sites:read");
    expect((await api("POST", `/v1/sites/${site.id}/verification/rotate`, { key: readOnly })).status).toBe(403);
    const rotated = await api("POST", `/v1/sites/${site.id}/verification/rotate`, { key });
    expect(rotated.status).toBe(200);
    expect(rotated.body).toEqual({ verification_secret: expect.stringMatching(SECRET) });
    expect(rotated.body.verification_secret).not.toBe(site.verification_secret);
    expect((await api("GET", `/v1/sites/${site.id}`, { key })).body.verification_secret).toBe(rotated.body.verification_secret);
    // Another account's site is not found.
    expect((await api("POST", `/v1/sites/${site.id}/verification/rotate`, { key: await newKey() })).status).toBe(404);
  });

  it("goes on every warming call as Preheat-Verification, the current value only, and never into the server's log", async () => {
    const site: Site = await createValidatedSite(key);
    await serveSite(site.domain, { routes: {}, fallback: { status: 200, body: "<html>ok</html>" } });
    expect((await warmedHeaders(site, "/before"))["preheat-verification"]).toBe(site.verification_secret);

    const rotated = (await api("POST", `/v1/sites/${site.id}/verification/rotate`, { key })).body.verification_secret as string;
    expect((await warmedHeaders(site, "/after"))["preheat-verification"]).toBe(rotated);
    const sent = (await originHeaders(site.domain, IDENTIFYING)).map((entry) => entry.headers["preheat-verification"]);
    expect(sent.filter((value) => value === site.verification_secret)).toHaveLength(1); // the call before the rotation only

    await new Promise((resolve) => setTimeout(resolve, 300)); // the lines of the calls just made are written
    const log = readFileSync(inject("serverLog"), "utf8");
    expect(log).not.toContain(site.verification_secret);
    expect(log).not.toContain(rotated);
  });
});

describe("Web Bot Auth signatures", () => {
  it("sign each warming call with a key the directory lists, and the directory is served as its media type", async () => {
    const site: Site = await createValidatedSite(key);
    await serveSite(site.domain, { routes: {}, fallback: { status: 200, body: "<html>ok</html>" } });
    const headers = await warmedHeaders(site, "/signed");
    expect(headers["signature-agent"]).toBe(`"${baseUrl.replace("127.0.0.1", "localhost")}/.well-known/http-message-signatures-directory"`);

    const directory = await fetch(`${baseUrl}/.well-known/http-message-signatures-directory`);
    expect(directory.status).toBe(200);
    expect(directory.headers.get("content-type")).toBe("application/http-message-signatures-directory+json");
    expect(directory.headers.get("signature-input")).toMatch(/tag="http-message-signatures-directory"/);
    const { keys } = (await directory.json()) as { keys: (JsonWebKey & { kid: string })[] };
    expect(keys.length).toBeGreaterThan(0);

    const signed = Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== null));
    await verify({ method: "GET", url: `http://${site.domain}/signed`, headers: signed }, async (data, signature, params) => {
      const jwk = keys.find((k) => k.kid === params.keyid);
      expect(jwk, "the signing key is listed").toBeDefined();
      return (await verifierFromJWK(jwk!))(data, signature, params);
    });
    expect(await cli("bot-keys", "list")).toMatch(new RegExp(`${keys[0]!.kid}\\s+active`));
  });
});

describe("the allow-listing guide", () => {
  it("is served at /docs/site-owners/bot-protection (and its old address), and /bot links it and names the header", async () => {
    const old = await fetch(`${baseUrl}/docs/allow-listing`, { redirect: "manual" });
    expect(old.headers.get("location")).toMatch(/\/docs\/site-owners\/bot-protection$/);
    const guide = await fetch(`${baseUrl}/docs/site-owners/bot-protection`);
    expect(guide.status).toBe(200);
    const html = await guide.text();
    for (const vendor of ["Cloudflare", "Akamai", "Fastly", "AWS WAF", "Imperva", "Sucuri", "Vercel"]) expect(html).toContain(vendor);
    expect(html).toContain("any(http.request.headers[&quot;preheat-verification&quot;][*] eq &quot;YOUR_SECRET&quot;)");
    const bot = await (await fetch(`${baseUrl}/bot`)).text();
    expect(bot).toContain('href="/docs/site-owners/bot-protection"');
    expect(bot).toContain("Preheat-Verification");
  });
});
