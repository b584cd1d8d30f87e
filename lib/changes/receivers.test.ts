import { contentfulEntry, shopifyProduct } from "@/lib/testing/change-payloads";
import { createHash, createHmac, randomBytes } from "node:crypto";
import { signRequest } from "@contentful/node-apps-toolkit/requests";
import { encodeSignatureHeader } from "@sanity/webhook";
import { SignJWT } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { findOrCreateUser } from "@/lib/accounts/users";
import { readBodyBytes } from "@/lib/api/input";
import type { AccountContext } from "@/lib/context";
import { MalformedError, NotFoundError, UnauthenticatedError } from "@/lib/core/errors";
import { type DatabaseHandle, openDatabase } from "@/lib/db";
import { createSite } from "@/lib/sites/service";
import { withoutSecrets } from "./deliveries";
import { queueChanges, queueDeployChanges } from "./queue";
import { receiveChange } from "./receive";
import { createReceiver, deleteReceiver, getReceiver, listReceiverDeliveries, listReceivers, rotateReceiverSecret, updateReceiver } from "./receivers";
import { renderTemplate } from "./templates";

// The change API's verbs are written on another branch: here they answer as they are declared to.
vi.mock("./queue", () => ({
  queueChanges: vi.fn(async (_ctx: AccountContext, _siteId: number, input: { urls: string[] }) => ({
    run_id: 0,
    url_count: input.urls.length,
    left_out: 0,
    status: "pending",
    warm_at: "2026-11-28T12:00:30.000Z",
  })),
  queueDeployChanges: vi.fn(async () => ({ run_id: 0, status: "pending", coalesced: false })),
}));

let handle: DatabaseHandle;
let ctx: AccountContext;
let other: AccountContext;
let siteId: number;
let runId: number;
const PATH = (publicId: string) => `/v1/receivers/${publicId}`;
/** Shopify's documented `products/update` payload, for the product `example-t-shirt`. */
const shopifyTShirt = shopifyProduct("example-t-shirt");

beforeAll(async () => {
  process.env.PREHEAT_SECRETS_KEY = randomBytes(32).toString("hex");
  handle = await openDatabase({ dataDir: "memory://" });
  const { user } = await findOrCreateUser(handle.db, "changes@example.com");
  const { user: stranger } = await findOrCreateUser(handle.db, "stranger@example.com");
  ctx = { db: handle.db, accountId: user.accountId };
  other = { db: handle.db, accountId: stranger.accountId };
  siteId = (await createSite(ctx, { domain: "shop.example.com" })).id;
  // A real run for the deliveries' run_id (its foreign key).
  const { runs } = await import("@/drizzle/schema");
  const [run] = await handle.db
    .insert(runs)
    .values({ siteId, accountId: ctx.accountId, status: "pending", kind: "warm", regions: ["eu"] })
    .returning({ id: runs.id });
  runId = run!.id;
  vi.mocked(queueChanges).mockImplementation(async (_ctx, _siteId, input) => ({ run_id: runId, url_count: input.urls.length, left_out: 0, status: "pending", warm_at: "2026-11-28T12:00:30.000Z" }));
  vi.mocked(queueDeployChanges).mockImplementation(async () => ({ run_id: runId, status: "pending", coalesced: false }));
}, 60_000);

afterAll(async () => {
  await handle?.close();
  delete process.env.PREHEAT_SECRETS_KEY;
});

beforeEach(() => {
  vi.mocked(queueChanges).mockClear();
  vi.mocked(queueDeployChanges).mockClear();
});

const bytes = (text: string) => new Uint8Array(Buffer.from(text, "utf8"));
const publicIdOf = (url: string) => url.split("/").at(-1)!;

async function receiver(kind: Parameters<typeof createReceiver>[2]["kind"], extra: Partial<Parameters<typeof createReceiver>[2]> = {}) {
  const created = await createReceiver(ctx, siteId, { kind, ...extra });
  return { ...created, publicId: publicIdOf(created.url) };
}

describe("URL templates", () => {
  it("renders dotted paths, and says why a template does not match", () => {
    const payload = { fields: { slug: { "en-US": "hello world" } }, n: 7, empty: "", nested: { a: 1 } };
    expect(renderTemplate("/blog/{fields.slug.en-US}", payload, "example.com")).toEqual({ url: "https://example.com/blog/hello%20world" });
    expect(renderTemplate("/p/{n}", payload, "example.com")).toEqual({ url: "https://example.com/p/7" });
    expect(renderTemplate("/blog/{fields.title}", payload, "example.com")).toEqual({ miss: "/blog/{fields.title}: the payload has no `fields.title`" });
    expect(renderTemplate("/{empty}", payload, "example.com")).toMatchObject({ miss: expect.stringContaining("has no `empty`") });
    expect(renderTemplate("/{nested}", payload, "example.com")).toMatchObject({ miss: expect.stringContaining("not a string or a number") });
    expect(renderTemplate("/{slug}", { slug: "/evil.example.net/x" }, "example.com")).toMatchObject({ miss: expect.stringContaining("leaves the site") });
  });
});

describe("managing receivers", () => {
  it("creates a receiver with its URL and secret once; lists and reads it without the secret", async () => {
    const created = await receiver("shopify");
    expect(created.url).toMatch(/\/v1\/receivers\/[\w-]{24}$/);
    expect(created.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(created.url_templates).toEqual({ products: ["/products/{handle}"], collections: ["/collections/{handle}"], pages: ["/pages/{handle}"] });
    const read = await getReceiver(ctx, siteId, created.id);
    const list = await listReceivers(ctx, siteId);
    expect(JSON.stringify([read, list])).not.toContain(created.secret);
    expect(list.data.map((r) => r.id)).toContain(created.id);
  });

  it("hides another organization's receivers and those of a site a key does not reach", async () => {
    const created = await receiver("strapi");
    await expect(getReceiver(other, siteId, created.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(createReceiver(other, siteId, { kind: "strapi" })).rejects.toBeInstanceOf(NotFoundError);
    await expect(getReceiver({ ...ctx, siteIds: [siteId + 1000] }, siteId, created.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("refuses templates on a deploy receiver, replaces them elsewhere, and deletes", async () => {
    await expect(createReceiver(ctx, siteId, { kind: "netlify", url_templates: { "*": ["/"] } })).rejects.toThrow(/takes none/);
    const created = await receiver("sanity");
    const updated = await updateReceiver(ctx, siteId, created.id, { url_templates: { post: ["/blog/{slug.current}"] } });
    expect(updated.url_templates).toEqual({ post: ["/blog/{slug.current}"] });
    await deleteReceiver(ctx, siteId, created.id);
    await expect(receiveChange(handle.db, created.publicId, { method: "POST", path: PATH(created.publicId), headers: {}, body: bytes("{}") })).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("Shopify", () => {
  const shopifyHeaders = (secret: string, body: string, webhookId = randomBytes(8).toString("hex"), topic = "products/update") => ({
    "x-shopify-hmac-sha256": createHmac("sha256", secret).update(body).digest("base64"),
    "x-shopify-topic": topic,
    "x-shopify-shop-domain": "example.myshopify.com",
    "x-shopify-webhook-id": webhookId,
    "content-type": "application/json",
  });

  it("queues the product's page on a valid signature, once per X-Shopify-Webhook-Id", async () => {
    const r = await receiver("shopify");
    const headers = shopifyHeaders(r.secret, shopifyTShirt, "b54557e4-bdd9-4b37-8a5f-bf7d70bcd043");
    const first = await receiveChange(handle.db, r.publicId, { method: "POST", path: PATH(r.publicId), headers, body: bytes(shopifyTShirt) });
    expect(first).toMatchObject({ repeat: false, answer: { queued: true, run_id: runId, url_count: 1, status: "pending" } });
    expect(queueChanges).toHaveBeenCalledWith(expect.objectContaining({ trigger: { kind: "changes", label: `shopify receiver ${r.id}` } }), siteId, {
      urls: ["https://shop.example.com/products/example-t-shirt"],
    });
    const again = await receiveChange(handle.db, r.publicId, { method: "POST", path: PATH(r.publicId), headers, body: bytes(shopifyTShirt) });
    expect(again).toMatchObject({ repeat: true, answer: { queued: false, delivery_id: first.answer.delivery_id } });
    expect(queueChanges).toHaveBeenCalledTimes(1);
  });

  it("refuses a wrong or missing signature before reading the body", async () => {
    const r = await receiver("shopify");
    const headers = shopifyHeaders("not-the-secret", shopifyTShirt);
    const refused = receiveChange(handle.db, r.publicId, { method: "POST", path: PATH(r.publicId), headers, body: bytes(shopifyTShirt) });
    await expect(refused).rejects.toBeInstanceOf(UnauthenticatedError);
    await expect(refused).rejects.toMatchObject({ code: "invalid_signature" });
    // A body that is not JSON, unsigned: 401, not 400: nothing is parsed before the signature.
    await expect(receiveChange(handle.db, r.publicId, { method: "POST", path: PATH(r.publicId), headers: {}, body: bytes("{nope") })).rejects.toBeInstanceOf(UnauthenticatedError);
    expect((await listReceiverDeliveries(ctx, siteId, r.id)).data).toEqual([]);
  });

  it("ignores other topics, answers 400 for a signed body that is not JSON, and keeps both", async () => {
    const r = await receiver("shopify");
    const order = JSON.stringify({ id: 1, email: "a@example.com" });
    const ignored = await receiveChange(handle.db, r.publicId, { method: "POST", path: PATH(r.publicId), headers: shopifyHeaders(r.secret, order, undefined, "orders/create"), body: bytes(order) });
    expect(ignored.answer).toMatchObject({ queued: false, reason: expect.stringContaining("orders/create") });
    const bad = "{not json";
    await expect(receiveChange(handle.db, r.publicId, { method: "POST", path: PATH(r.publicId), headers: shopifyHeaders(r.secret, bad), body: bytes(bad) })).rejects.toBeInstanceOf(MalformedError);
    const { data } = await listReceiverDeliveries(ctx, siteId, r.id);
    expect(data.map((d) => d.outcome)).toEqual(["malformed", "ignored"]);
    expect(queueChanges).not.toHaveBeenCalled();
  });

  it("stops accepting the old secret once rotated", async () => {
    const r = await receiver("shopify");
    const rotated = await rotateReceiverSecret(ctx, siteId, r.id);
    expect(rotated.secret).not.toBe(r.secret);
    const delivery = (secret: string) => ({
      method: "POST",
      path: PATH(r.publicId),
      headers: shopifyHeaders(secret, shopifyTShirt),
      body: bytes(shopifyTShirt),
    });
    await expect(receiveChange(handle.db, r.publicId, delivery(r.secret))).rejects.toBeInstanceOf(UnauthenticatedError);
    await expect(receiveChange(handle.db, r.publicId, delivery(rotated.secret))).resolves.toMatchObject({ answer: { queued: true } });
  });
});

describe("Contentful", () => {
  const topic = "ContentManagement.Entry.publish";
  const signed = (secret: string, path: string, body: string, timestamp = Date.now()) => {
    const headers = { "x-contentful-topic": topic, "content-type": "application/vnd.contentful.management.v1+json" };
    return { ...headers, ...signRequest(secret, { method: "POST", path, headers, body }, timestamp) };
  };

  it("verifies request verification's signature and maps the entry by its content type", async () => {
    const r = await receiver("contentful", { url_templates: { blogPost: ["/blog/{fields.slug.en-US}"] } });
    const body = contentfulEntry("blogPost");
    const result = await receiveChange(handle.db, r.publicId, { method: "POST", path: PATH(r.publicId), headers: signed(r.secret, PATH(r.publicId), body), body: bytes(body) });
    expect(result.answer).toMatchObject({ queued: true, url_count: 1 });
    expect(queueChanges).toHaveBeenCalledWith(expect.anything(), siteId, { urls: ["https://shop.example.com/blog/hello-world"] });
  });

  it("refuses a changed body, and a signature older than five minutes (a replay)", async () => {
    const r = await receiver("contentful", { url_templates: { blogPost: ["/blog/{fields.slug.en-US}"] } });
    const body = contentfulEntry("blogPost");
    const headers = signed(r.secret, PATH(r.publicId), body);
    await expect(receiveChange(handle.db, r.publicId, { method: "POST", path: PATH(r.publicId), headers, body: bytes(body.replace("hello-world", "evil")) })).rejects.toBeInstanceOf(
      UnauthenticatedError,
    );
    const old = signed(r.secret, PATH(r.publicId), body, Date.now() - 10 * 60_000);
    await expect(receiveChange(handle.db, r.publicId, { method: "POST", path: PATH(r.publicId), headers: old, body: bytes(body) })).rejects.toThrow(/more than 300 s old/);
  });

  it("takes the X-Preheat-Secret header instead, and keeps an unmapped entry with why", async () => {
    const r = await receiver("contentful", { url_templates: { blogPost: ["/blog/{fields.slug.en-US}"] } });
    const body = contentfulEntry("landingPage");
    const headers = { "x-contentful-topic": topic, "x-preheat-secret": r.secret };
    const result = await receiveChange(handle.db, r.publicId, { method: "POST", path: PATH(r.publicId), headers, body: bytes(body) });
    expect(result.answer).toMatchObject({ queued: false, reason: expect.stringContaining("no URL template for `landingPage`") });
    const [delivery] = (await listReceiverDeliveries(ctx, siteId, r.id)).data;
    expect(delivery).toMatchObject({ outcome: "unmapped", event: topic, reason: expect.stringContaining("landingPage") });
    expect(delivery!.payload).toMatchObject({ sys: { contentType: { sys: { id: "landingPage" } } } });
    await expect(receiveChange(handle.db, r.publicId, { method: "POST", path: PATH(r.publicId), headers: { ...headers, "x-preheat-secret": "wrong" }, body: bytes(body) })).rejects.toBeInstanceOf(
      UnauthenticatedError,
    );
  });
});

describe("Sanity", () => {
  /** A document as a Sanity webhook's default projection sends it. */
  const post = JSON.stringify({ _id: "post-1", _type: "post", _rev: "abc", title: "Hello", slug: { _type: "slug", current: "hello-world" } });

  it("verifies sanity-webhook-signature with @sanity/webhook and maps by _type; refuses an old t=", async () => {
    const r = await receiver("sanity", { url_templates: { post: ["/blog/{slug.current}"] } });
    const header = await encodeSignatureHeader(post, Date.now(), r.secret);
    const result = await receiveChange(handle.db, r.publicId, { method: "POST", path: PATH(r.publicId), headers: { "sanity-webhook-signature": header }, body: bytes(post) });
    expect(result.answer).toMatchObject({ queued: true });
    expect(queueChanges).toHaveBeenCalledWith(expect.anything(), siteId, { urls: ["https://shop.example.com/blog/hello-world"] });
    const old = await encodeSignatureHeader(post, Date.now() - 3_600_000, r.secret);
    await expect(receiveChange(handle.db, r.publicId, { method: "POST", path: PATH(r.publicId), headers: { "sanity-webhook-signature": old }, body: bytes(post) })).rejects.toThrow(/more than 300 s/);
    const forged = await encodeSignatureHeader(post, Date.now(), "another secret");
    await expect(receiveChange(handle.db, r.publicId, { method: "POST", path: PATH(r.publicId), headers: { "sanity-webhook-signature": forged }, body: bytes(post) })).rejects.toBeInstanceOf(
      UnauthenticatedError,
    );
  });
});

describe("Strapi", () => {
  /** Strapi's documented `entry.publish` payload. */
  const event = (name: string) =>
    JSON.stringify({
      event: name,
      createdAt: "2026-11-28T12:00:00.000Z",
      model: "article",
      uid: "api::article.article",
      entry: { id: 1, title: "Hello", slug: "hello", publishedAt: "2026-11-28T12:00:00.000Z" },
    });

  it("compares the bearer secret, maps entry events by model and ignores the others", async () => {
    const r = await receiver("strapi", { url_templates: { article: ["/articles/{entry.slug}"] } });
    const headers = { authorization: `Bearer ${r.secret}` };
    const result = await receiveChange(handle.db, r.publicId, { method: "POST", path: PATH(r.publicId), headers, body: bytes(event("entry.publish")) });
    expect(result.answer).toMatchObject({ queued: true });
    expect(queueChanges).toHaveBeenCalledWith(expect.anything(), siteId, { urls: ["https://shop.example.com/articles/hello"] });
    const created = await receiveChange(handle.db, r.publicId, { method: "POST", path: PATH(r.publicId), headers, body: bytes(event("entry.create")) });
    expect(created.answer).toMatchObject({ queued: false, reason: expect.stringContaining("entry.create") });
    await expect(
      receiveChange(handle.db, r.publicId, { method: "POST", path: PATH(r.publicId), headers: { authorization: "Bearer nope" }, body: bytes(event("entry.publish")) }),
    ).rejects.toBeInstanceOf(UnauthenticatedError);
  });
});

describe("Netlify and Vercel", () => {
  const netlifyDeploy = (state: string) =>
    JSON.stringify({ id: "5ebc34bf4fea0b01f02efa3a", site_id: "fa4dd95a", build_id: "5ebc34bf", state, name: "shop", url: "https://shop.example.com", context: "production", branch: "main" });

  it("Netlify: verifies the JWS and its sha256 claim, then warms the sitemaps' changes on `ready`", async () => {
    const r = await receiver("netlify");
    const body = netlifyDeploy("ready");
    const jws = (secret: string, text: string) =>
      new SignJWT({ sha256: createHash("sha256").update(text).digest("hex") }).setProtectedHeader({ alg: "HS256", typ: "JWT" }).setIssuer("netlify").sign(new TextEncoder().encode(secret));
    const result = await receiveChange(handle.db, r.publicId, { method: "POST", path: PATH(r.publicId), headers: { "x-webhook-signature": await jws(r.secret, body) }, body: bytes(body) });
    expect(result.answer).toMatchObject({ queued: true, run_id: runId });
    expect(queueDeployChanges).toHaveBeenCalledWith(expect.objectContaining({ trigger: { kind: "changes", label: `netlify receiver ${r.id}` } }), siteId);
    // Signed for another body: the claim does not match.
    await expect(
      receiveChange(handle.db, r.publicId, { method: "POST", path: PATH(r.publicId), headers: { "x-webhook-signature": await jws(r.secret, netlifyDeploy("building")) }, body: bytes(body) }),
    ).rejects.toThrow(/sha256 claim/);
    const building = netlifyDeploy("building");
    const ignored = await receiveChange(handle.db, r.publicId, { method: "POST", path: PATH(r.publicId), headers: { "x-webhook-signature": await jws(r.secret, building) }, body: bytes(building) });
    expect(ignored.answer).toMatchObject({ queued: false });
    expect(queueDeployChanges).toHaveBeenCalledTimes(1);
  });

  it("Vercel: verifies the HMAC-SHA1, warms on a production deployment.succeeded only", async () => {
    const r = await receiver("vercel", { secret: "vercel-made-this-secret-1234" });
    const event = (type: string, target: string | null) =>
      JSON.stringify({ id: "evt_1", type, createdAt: 1764331200000, payload: { deployment: { id: "dpl_1", url: "shop-abc.vercel.app", name: "shop" }, target, project: { id: "prj_1" } } });
    const sign = (body: string) => ({ "x-vercel-signature": createHmac("sha1", "vercel-made-this-secret-1234").update(body).digest("hex") });
    const ok = event("deployment.succeeded", "production");
    expect((await receiveChange(handle.db, r.publicId, { method: "POST", path: PATH(r.publicId), headers: sign(ok), body: bytes(ok) })).answer).toMatchObject({ queued: true });
    const preview = event("deployment.succeeded", null);
    expect((await receiveChange(handle.db, r.publicId, { method: "POST", path: PATH(r.publicId), headers: sign(preview), body: bytes(preview) })).answer).toMatchObject({
      queued: false,
      reason: expect.stringContaining("preview"),
    });
    const created = event("deployment.created", "production");
    expect((await receiveChange(handle.db, r.publicId, { method: "POST", path: PATH(r.publicId), headers: sign(created), body: bytes(created) })).answer).toMatchObject({ queued: false });
    await expect(receiveChange(handle.db, r.publicId, { method: "POST", path: PATH(r.publicId), headers: { "x-vercel-signature": "0".repeat(40) }, body: bytes(ok) })).rejects.toBeInstanceOf(
      UnauthenticatedError,
    );
    expect(queueDeployChanges).toHaveBeenCalledTimes(1);
  });
});

describe("deliveries", () => {
  it("never keep a secret, and keep the last 50", async () => {
    const r = await receiver("strapi", { url_templates: { article: ["/articles/{entry.slug}"] } });
    const headers = { authorization: `Bearer ${r.secret}` };
    const leaky = JSON.stringify({ event: "entry.update", model: "article", entry: { slug: "x", api_token: "tok_123", note: `copied ${r.secret}` } });
    await receiveChange(handle.db, r.publicId, { method: "POST", path: PATH(r.publicId), headers, body: bytes(leaky) });
    const [kept] = (await listReceiverDeliveries(ctx, siteId, r.id)).data;
    expect(kept!.payload).toMatchObject({ entry: { slug: "x", api_token: "[redacted]", note: "[redacted]" } });
    expect(JSON.stringify(kept)).not.toContain(r.secret);
    expect(withoutSecrets({ a: [{ password: "p" }] }, "s")).toEqual({ a: [{ password: "[redacted]" }] });

    for (let i = 0; i < 52; i++) {
      const body = JSON.stringify({ event: "entry.update", model: "unknown", entry: { slug: `s${i}` } });
      await receiveChange(handle.db, r.publicId, { method: "POST", path: PATH(r.publicId), headers, body: bytes(body) });
    }
    const { data } = await listReceiverDeliveries(ctx, siteId, r.id);
    expect(data).toHaveLength(50);
    expect(data[0]!.payload).toMatchObject({ entry: { slug: "s51" } });
    expect(data.every((d) => d.outcome === "unmapped")).toBe(true);
  }, 60_000);

  it("a body over the cap is refused with 413 before it is read in full", async () => {
    const big = new Request("http://localhost/v1/receivers/x", { method: "POST", body: "x".repeat(1024 * 1024 + 1) });
    await expect(readBodyBytes(big, 1024 * 1024)).rejects.toMatchObject({ status: 413 });
    await expect(readBodyBytes(new Request("http://localhost/", { method: "POST", body: "{}" }), 1024 * 1024)).resolves.toHaveLength(2);
  });
});
