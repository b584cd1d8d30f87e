import { contentfulEntry, shopifyProduct } from "@/lib/testing/change-payloads";
import { createHash, createHmac, randomBytes } from "node:crypto";
import { signRequest } from "@contentful/node-apps-toolkit/requests";
import { encodeSignatureHeader } from "@sanity/webhook";
import { SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { api, createValidatedSite, newKey, serveSite } from "./support/api";

// The change receivers through the server (issue 58, "How it is checked"): each system's documented
// payload, signed as that system signs it, posted to the `url` that POST …/change-receivers answered.
// The payloads and signing helpers are those of the domain test (lib/changes/receivers.test.ts).

type Kind = "shopify" | "contentful" | "sanity" | "strapi" | "netlify" | "vercel";
type Receiver = { id: number; url: string; secret: string; path: string };
/** The headers a system sends with `body`, signed with `secret` for a delivery to `path`. */
type Signer = (secret: string, path: string, body: string) => Promise<Record<string, string>> | Record<string, string>;

/** A validated site served by the local origin (its pages answer at once), and a receiver of `kind` on it. */
async function siteWithReceiver(key: string, kind: Kind, extra: Record<string, unknown> = {}) {
  const site = await createValidatedSite(key);
  await serveSite(site.domain, { routes: { [`/${site.validation_token}.html`]: { body: site.validation_token } }, fallback: { body: "page" } });
  const created = await api("POST", `/v1/sites/${site.id}/change-receivers`, { key, body: { kind, ...extra } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const receiver: Receiver = { ...created.body, path: new URL(created.body.url).pathname };
  return { site, receiver };
}

const deliveriesOf = async (key: string, siteId: number, receiver: Receiver) => {
  const listed = await api("GET", `/v1/sites/${siteId}/change-receivers/${receiver.id}/deliveries`, { key });
  expect(listed.status).toBe(200);
  return listed.body.data as { outcome: string; reason: string | null; event: string | null; urls: string[]; run_id: number | null; payload: unknown }[];
};

const deliver = async (receiver: Receiver, sign: Signer, body: string, secret = receiver.secret) => api("POST", receiver.path, { rawBody: body, headers: await sign(secret, receiver.path, body) });

// --- Each system's documented payload (lib/testing/change-payloads.ts, or as in lib/changes/receivers.test.ts) and signature ---

const shopifySigned =
  (webhookId?: string): Signer =>
  (secret, _path, body) => ({
    "x-shopify-hmac-sha256": createHmac("sha256", secret).update(body).digest("base64"),
    "x-shopify-topic": "products/update",
    "x-shopify-shop-domain": "example.myshopify.com",
    "x-shopify-webhook-id": webhookId ?? randomBytes(8).toString("hex"),
    "content-type": "application/json",
  });

/** Contentful's request verification: an HMAC over the method, the path, the signed headers and the body. */
const contentfulSignedAt =
  (timestamp: () => number): Signer =>
  (secret, path, body) => {
    const headers = { "x-contentful-topic": "ContentManagement.Entry.publish", "content-type": "application/vnd.contentful.management.v1+json" };
    return { ...headers, ...signRequest(secret, { method: "POST", path, headers, body }, timestamp()) };
  };
const contentfulSigned = contentfulSignedAt(Date.now);

/** A document as a Sanity webhook's default projection sends it. */
const sanityDocument = (type: string) => JSON.stringify({ _id: "post-1", _type: type, _rev: "abc", title: "Hello", slug: { _type: "slug", current: "hello-world" } });
const sanitySignedAt =
  (timestamp: () => number): Signer =>
  async (secret, _path, body) => ({
    "sanity-webhook-signature": await encodeSignatureHeader(body, timestamp(), secret),
    "content-type": "application/json",
  });
const sanitySigned = sanitySignedAt(Date.now);

/** Strapi's documented `entry.publish` payload. */
const strapiEntry = (model: string) =>
  JSON.stringify({
    event: "entry.publish",
    createdAt: "2026-11-28T12:00:00.000Z",
    model,
    uid: `api::${model}.${model}`,
    entry: { id: 1, title: "Hello", slug: "hello", publishedAt: "2026-11-28T12:00:00.000Z" },
  });
/** Strapi signs nothing: the header the owner adds in its webhook settings is the proof. */
const strapiSigned: Signer = (secret) => ({ authorization: `Bearer ${secret}`, "content-type": "application/json" });

/** Netlify's deploy notification (`state: ready` is "Deploy succeeded"). */
const netlifyDeploy = JSON.stringify({
  id: "5ebc34bf4fea0b01f02efa3a",
  site_id: "fa4dd95a",
  build_id: "5ebc34bf",
  state: "ready",
  name: "shop",
  url: "https://shop.example.com",
  context: "production",
  branch: "main",
});
/** Netlify's JWS (HS256, issuer `netlify`) whose `sha256` claim is the body's hex SHA-256. */
const netlifySigned: Signer = async (secret, _path, body) => ({
  "x-webhook-signature": await new SignJWT({ sha256: createHash("sha256").update(body).digest("hex") })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuer("netlify")
    .sign(new TextEncoder().encode(secret)),
  "content-type": "application/json",
});

/** Vercel's `deployment.succeeded` event of a production deployment. */
const vercelDeploy = JSON.stringify({
  id: "evt_1",
  type: "deployment.succeeded",
  createdAt: 1764331200000,
  payload: { deployment: { id: "dpl_1", url: "shop-abc.vercel.app", name: "shop" }, target: "production", project: { id: "prj_1" } },
});
/** Vercel's `x-vercel-signature`: the hex HMAC-SHA1 of the raw body. */
const vercelSigned: Signer = (secret, _path, body) => ({ "x-vercel-signature": createHmac("sha1", secret).update(body).digest("hex"), "content-type": "application/json" });

type MappingSystem = {
  kind: Kind;
  templates?: Record<string, string[]>;
  sign: Signer;
  /** A payload the receiver's templates map to `path`. */
  mapped: string;
  path: string;
  /** A payload no template maps, and a word the reason says. */
  unmapped: string;
  why: RegExp;
};

const MAPPING: MappingSystem[] = [
  { kind: "shopify", sign: shopifySigned(), mapped: shopifyProduct("example-t-shirt"), path: "/products/example-t-shirt", unmapped: shopifyProduct(null), why: /handle/ },
  {
    kind: "contentful",
    templates: { blogPost: ["/blog/{fields.slug.en-US}"] },
    sign: contentfulSigned,
    mapped: contentfulEntry("blogPost"),
    path: "/blog/hello-world",
    unmapped: contentfulEntry("landingPage"),
    why: /landingPage/,
  },
  { kind: "sanity", templates: { post: ["/blog/{slug.current}"] }, sign: sanitySigned, mapped: sanityDocument("post"), path: "/blog/hello-world", unmapped: sanityDocument("author"), why: /author/ },
  {
    kind: "strapi",
    templates: { article: ["/articles/{entry.slug}"] },
    sign: strapiSigned,
    mapped: strapiEntry("article"),
    path: "/articles/hello",
    unmapped: strapiEntry("category"),
    why: /category/,
  },
];

describe.each(MAPPING)("a $kind receiver", (system) => {
  let key: string;
  beforeAll(async () => {
    key = await newKey();
  });
  /** A site of its own per test: its deliveries and runs are the test's alone. */
  const make = async () => ({ key, ...(await siteWithReceiver(key, system.kind, system.templates ? { url_templates: system.templates } : {})) });

  it("queues the page a documented payload maps to, signed as the system signs it: 202, a run triggered by changes", async () => {
    const { key, site, receiver } = await make();
    const answer = await deliver(receiver, system.sign, system.mapped);
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    expect(answer.body).toMatchObject({ queued: true, url_count: 1, status: "pending", run_id: expect.any(Number) });
    const run = await api("GET", `/v1/runs/${answer.body.run_id}`, { key });
    expect(run.body).toMatchObject({ site_id: site.id, status: "pending", triggered_by: { kind: "changes", label: `${system.kind} receiver ${receiver.id}` } });
    const [delivery] = await deliveriesOf(key, site.id, receiver);
    expect(delivery).toMatchObject({ outcome: "queued", urls: [`https://${site.domain}${system.path}`], run_id: answer.body.run_id });
  });

  it("refuses a signature made with another secret with 401 and keeps nothing", async () => {
    const { key, site, receiver } = await make();
    const answer = await deliver(receiver, system.sign, system.mapped, randomBytes(32).toString("hex"));
    expect(answer.status).toBe(401);
    expect(answer.body.code).toBe("invalid_signature");
    expect(await deliveriesOf(key, site.id, receiver)).toEqual([]);
    expect((await api("GET", `/v1/sites/${site.id}/warm-runs`, { key })).body.total).toBe(0);
  });

  it("answers 400 to a signed body that is not JSON, and 413 to one over 1 MiB", async () => {
    const { key, site, receiver } = await make();
    const malformed = await deliver(receiver, system.sign, '{"handle": "not json');
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe("invalid_json");
    const big = "x".repeat(1024 * 1024 + 1);
    expect((await deliver(receiver, system.sign, big)).status).toBe(413);
    expect((await deliveriesOf(key, site.id, receiver)).map((d) => d.outcome)).toEqual(["malformed"]);
    expect((await api("GET", `/v1/sites/${site.id}/warm-runs`, { key })).body.total).toBe(0);
  });

  it("keeps a payload that maps to no URL, listed with why, and queues nothing", async () => {
    const { key, site, receiver } = await make();
    const answer = await deliver(receiver, system.sign, system.unmapped);
    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({ queued: false, reason: expect.stringMatching(system.why) });
    const [delivery] = await deliveriesOf(key, site.id, receiver);
    expect(delivery).toMatchObject({ outcome: "unmapped", reason: expect.stringMatching(system.why), urls: [], run_id: null });
    expect(delivery!.payload).toEqual(JSON.parse(system.unmapped));
    expect((await api("GET", `/v1/sites/${site.id}/warm-runs`, { key })).body.total).toBe(0);
  });
});

describe("Shopify's repeats", () => {
  it("a delivery with an X-Shopify-Webhook-Id already received is answered 200 and queued nothing again", async () => {
    const key = await newKey();
    const { site, receiver } = await siteWithReceiver(key, "shopify");
    const sign = shopifySigned("b54557e4-bdd9-4b37-8a5f-bf7d70bcd043");
    const first = await deliver(receiver, sign, shopifyProduct("example-t-shirt"));
    expect(first.status).toBe(202);
    const again = await deliver(receiver, sign, shopifyProduct("example-t-shirt"));
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ queued: false, delivery_id: first.body.delivery_id, reason: expect.stringContaining("repeat") });
    // A repeat of another page under the same id is not read either: Shopify's id names the delivery.
    const other = await deliver(receiver, sign, shopifyProduct("another-shirt"));
    expect(other.status).toBe(200);
    expect(await deliveriesOf(key, site.id, receiver)).toHaveLength(1);
    const runs = (await api("GET", `/v1/sites/${site.id}/warm-runs`, { key })).body;
    expect(runs.total).toBe(1);
    expect(runs.data[0]).toMatchObject({ id: first.body.run_id, source_urls: [`https://${site.domain}/products/example-t-shirt`] });
  });
});

describe("replays of a signed time (Contentful, Sanity)", () => {
  const tenMinutesAgo = () => Date.now() - 10 * 60_000;
  it.each([
    ["contentful", { blogPost: ["/blog/{fields.slug.en-US}"] }, contentfulSignedAt(tenMinutesAgo), contentfulEntry("blogPost")],
    ["sanity", { post: ["/blog/{slug.current}"] }, sanitySignedAt(tenMinutesAgo), sanityDocument("post")],
  ] as const)("%s: a delivery signed 10 minutes ago, correctly, is 401 and kept nowhere", async (kind, templates, sign, body) => {
    const key = await newKey();
    const { site, receiver } = await siteWithReceiver(key, kind, { url_templates: templates });
    const answer = await deliver(receiver, sign, body);
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ code: "invalid_signature", error: expect.stringContaining("300 s") });
    expect(await deliveriesOf(key, site.id, receiver)).toEqual([]);
    expect((await api("GET", `/v1/sites/${site.id}/warm-runs`, { key })).body.total).toBe(0);
  });
});

describe("deploy receivers (Netlify, Vercel)", () => {
  it("Netlify with a change boost: a signed `ready` runs it (202, run_id)", async () => {
    const key = await newKey();
    const { site, receiver } = await siteWithReceiver(key, "netlify");
    await serveSite(site.domain, {
      routes: {
        [`/${site.validation_token}.html`]: { body: site.validation_token },
        "/u.csv": { body: `url\nhttp://${site.domain}/a\n`, headers: { "content-type": "text/csv" } },
      },
      fallback: { body: "page" },
    });
    const boost = await api("POST", `/v1/sites/${site.id}/boosts`, { key, body: { name: "Changes", source_type: "csv", source_url: `http://${site.domain}/u.csv`, region: ["fr"] } });
    expect(boost.status).toBe(201);
    expect((await api("PATCH", `/v1/sites/${site.id}`, { key, body: { change_boost_id: boost.body.id } })).body.change_boost_id).toBe(boost.body.id);

    const answer = await deliver(receiver, netlifySigned, netlifyDeploy);
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    expect(answer.body).toMatchObject({ queued: true, run_id: expect.any(Number) });
    const run = await api("GET", `/v1/runs/${answer.body.run_id}`, { key });
    expect(run.body).toMatchObject({ boost_id: boost.body.id, site_id: site.id, triggered_by: { kind: "deploy_hook", label: `netlify receiver ${receiver.id}` } });
    expect((await deliveriesOf(key, site.id, receiver))[0]).toMatchObject({ outcome: "queued", run_id: answer.body.run_id });
  });

  it("Vercel without a change boost: a signed deployment.succeeded is 202 `queued: false`, saying why", async () => {
    const key = await newKey();
    const { site, receiver } = await siteWithReceiver(key, "vercel", { secret: "vercel-made-this-secret-1234" });
    const answer = await deliver(receiver, vercelSigned, vercelDeploy);
    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({ queued: false, reason: expect.stringContaining("no change boost") });
    expect((await deliveriesOf(key, site.id, receiver))[0]).toMatchObject({ outcome: "ignored", reason: expect.stringContaining("change_boost_id") });
    expect((await api("GET", `/v1/runs?limit=10`, { key })).body.total).toBe(0);
  });

  it.each([
    ["netlify", netlifySigned, netlifyDeploy],
    ["vercel", vercelSigned, vercelDeploy],
  ] as const)("%s: another secret's signature is 401; malformed JSON 400; over 1 MiB 413", async (kind, sign, body) => {
    const key = await newKey();
    const { site, receiver } = await siteWithReceiver(key, kind);
    expect((await deliver(receiver, sign, body, randomBytes(32).toString("hex"))).status).toBe(401);
    expect(await deliveriesOf(key, site.id, receiver)).toEqual([]);
    expect((await deliver(receiver, sign, "{not json")).status).toBe(400);
    expect((await deliver(receiver, sign, "x".repeat(1024 * 1024 + 1))).status).toBe(413);
    expect((await deliveriesOf(key, site.id, receiver)).map((d) => d.outcome)).toEqual(["malformed"]);
  });
});

describe("managing receivers", () => {
  it("shows the secret in the create and rotate-secret answers only; the old secret stops working at once", async () => {
    const key = await newKey();
    const { site, receiver } = await siteWithReceiver(key, "shopify");
    expect(receiver.secret).toMatch(/^[0-9a-f]{64}$/);
    const base = `/v1/sites/${site.id}/change-receivers`;
    const delivered = await deliver(receiver, shopifySigned(), shopifyProduct("example-t-shirt"));
    expect(delivered.status).toBe(202);
    const reads = [
      await api("GET", base, { key }),
      await api("GET", `${base}/${receiver.id}`, { key }),
      await api("PATCH", `${base}/${receiver.id}`, { key, body: { url_templates: { products: ["/p/{handle}"] } } }),
      await api("GET", `${base}/${receiver.id}/deliveries`, { key }),
    ];
    for (const read of reads) {
      expect(read.status).toBe(200);
      expect(JSON.stringify(read.body)).not.toContain(receiver.secret);
      expect(JSON.stringify(read.body)).not.toMatch(/"secret"/);
    }
    const rotated = await api("POST", `${base}/${receiver.id}/rotate-secret`, { key });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(rotated.body.secret).not.toBe(receiver.secret);
    expect((await deliver(receiver, shopifySigned(), shopifyProduct("example-t-shirt"))).status).toBe(401);
    expect((await deliver(receiver, shopifySigned(), shopifyProduct("example-t-shirt"), rotated.body.secret)).status).toBe(202);
    expect(JSON.stringify((await api("GET", `${base}/${receiver.id}`, { key })).body)).not.toContain(rotated.body.secret);
  });

  it("answers 404 to another organization's key, whatever the operation, and its receiver keeps working", async () => {
    const key = await newKey();
    const stranger = await newKey();
    const { site, receiver } = await siteWithReceiver(key, "strapi", { url_templates: { article: ["/articles/{entry.slug}"] } });
    const base = `/v1/sites/${site.id}/change-receivers`;
    const attempts = [
      await api("POST", base, { key: stranger, body: { kind: "strapi" } }),
      await api("GET", base, { key: stranger }),
      await api("GET", `${base}/${receiver.id}`, { key: stranger }),
      await api("PATCH", `${base}/${receiver.id}`, { key: stranger, body: { url_templates: { "*": ["/"] } } }),
      await api("POST", `${base}/${receiver.id}/rotate-secret`, { key: stranger }),
      await api("GET", `${base}/${receiver.id}/deliveries`, { key: stranger }),
      await api("DELETE", `${base}/${receiver.id}`, { key: stranger }),
    ];
    expect(attempts.map((a) => a.status)).toEqual([404, 404, 404, 404, 404, 404, 404]);
    for (const attempt of attempts) expect(JSON.stringify(attempt.body)).not.toContain(receiver.secret);
    // Nothing changed: the templates, the secret and the receiver itself are as they were.
    expect((await api("GET", `${base}/${receiver.id}`, { key })).body.url_templates).toEqual({ article: ["/articles/{entry.slug}"] });
    expect((await deliver(receiver, strapiSigned, strapiEntry("article"))).status).toBe(202);
    expect((await api("GET", base, { key })).body.data).toHaveLength(1);
  });

  it("a deleted receiver's URL answers 404, whatever is sent", async () => {
    const key = await newKey();
    const { site, receiver } = await siteWithReceiver(key, "sanity", { url_templates: { post: ["/blog/{slug.current}"] } });
    expect((await api("DELETE", `/v1/sites/${site.id}/change-receivers/${receiver.id}`, { key })).status).toBe(204);
    expect((await deliver(receiver, sanitySigned, sanityDocument("post"))).status).toBe(404);
  });
});
