import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findOrCreateUser } from "@/lib/accounts/users";
import type { AccountContext } from "@/lib/context";
import { NotFoundError } from "@/lib/core/errors";
import { type DatabaseHandle, openDatabase } from "@/lib/db";
import { createSite } from "@/lib/sites/service";
import { recordDelivery } from "./deliveries";
import { previewTemplates } from "./preview";
import { createReceiver } from "./receivers";

// The dashboard's preview of URL templates against the last payload a receiver kept.

let handle: DatabaseHandle;
let ctx: AccountContext;
let other: AccountContext;
let siteId: number;

beforeAll(async () => {
  process.env.PREHEAT_SECRETS_KEY = randomBytes(32).toString("hex");
  handle = await openDatabase({ dataDir: "memory://" });
  ctx = { db: handle.db, accountId: (await findOrCreateUser(handle.db, "preview@example.com")).user.accountId };
  other = { db: handle.db, accountId: (await findOrCreateUser(handle.db, "other@example.com")).user.accountId };
  siteId = (await createSite(ctx, { domain: "shop.example.com" })).id;
}, 60_000);

afterAll(async () => {
  await handle?.close();
  delete process.env.PREHEAT_SECRETS_KEY;
});

const kept = (receiver: { id: number; secret: string }, event: string, payload: unknown, outcome: "queued" | "unmapped" | "ignored" | "malformed" = "unmapped") =>
  recordDelivery(handle.db, receiver, { outcome, reason: null, event, payload });

describe("previewTemplates", () => {
  it("says there is no payload yet, and renders nothing, before the first delivery", async () => {
    const receiver = await createReceiver(ctx, siteId, { kind: "sanity", url_templates: { post: ["/blog/{slug.current}"] } });
    const preview = await previewTemplates(ctx, siteId, receiver.id);
    expect(preview).toMatchObject({ delivery: null, urls: [], templates: [] });
    expect(preview.note).toMatch(/No payload received yet/);
  });

  it("renders each template against the last payload kept, marks those that apply, and maps as a delivery would", async () => {
    const receiver = await createReceiver(ctx, siteId, { kind: "sanity", url_templates: { post: ["/blog/{slug.current}", "/blog/{title}"], page: ["/{slug.current}"] } });
    await kept(receiver, "post", { _type: "post", slug: { current: "old" } });
    const last = await kept(receiver, "post", { _type: "post", slug: { current: "hello world" } });
    // A malformed delivery keeps no payload: the preview stays on the last one that did.
    await recordDelivery(handle.db, receiver, { outcome: "malformed", reason: "The body is not JSON.", event: null });

    const preview = await previewTemplates(ctx, siteId, receiver.id);
    expect(preview.delivery).toMatchObject({ id: last!.id, event: "post", outcome: "unmapped" });
    expect(preview.note).toBeNull();
    expect(preview.key).toBe("post");
    expect(preview.urls).toEqual(["https://shop.example.com/blog/hello%20world"]);
    expect(preview.misses).toEqual(["/blog/{title}: the payload has no `title`"]);
    // Stored as jsonb, the keys come back in the database's order: compare as a set.
    expect(preview.templates).toHaveLength(3);
    expect(preview.templates).toEqual(
      expect.arrayContaining([
        { key: "post", template: "/blog/{slug.current}", used: true, url: "https://shop.example.com/blog/hello%20world", miss: null },
        { key: "post", template: "/blog/{title}", used: true, url: null, miss: "/blog/{title}: the payload has no `title`" },
        { key: "page", template: "/{slug.current}", used: false, url: "https://shop.example.com/hello%20world", miss: null },
      ]),
    );
  });

  it("previews a draft instead of the receiver's own templates, `*` standing in for a key without any", async () => {
    const receiver = await createReceiver(ctx, siteId, { kind: "sanity", url_templates: { post: ["/blog/{slug.current}"] } });
    await kept(receiver, "page", { _type: "page", slug: { current: "about" } });
    const own = await previewTemplates(ctx, siteId, receiver.id);
    expect(own.urls).toEqual([]);
    expect(own.misses[0]).toMatch(/no URL template for `page`/);

    const draft = await previewTemplates(ctx, siteId, receiver.id, { post: ["/blog/{slug.current}"], "*": ["/{slug.current}", "//evil.example/{slug.current}"] });
    expect(draft.urls).toEqual(["https://shop.example.com/about"]);
    expect(draft.templates.filter((t) => t.used).map((t) => t.key)).toEqual(["*", "*"]);
    expect(draft.templates.find((t) => t.template.startsWith("//"))?.miss).toMatch(/leaves the site/);
  });

  it("reads Shopify's topic from the delivery's event, and says when the event warms nothing", async () => {
    const receiver = await createReceiver(ctx, siteId, { kind: "shopify" });
    await kept(receiver, "products/update", { id: 1, handle: "blue-shirt" }, "queued");
    expect(await previewTemplates(ctx, siteId, receiver.id)).toMatchObject({ key: "products", urls: ["https://shop.example.com/products/blue-shirt"], note: null });

    await kept(receiver, "products/delete", { id: 1 }, "ignored");
    const ignored = await previewTemplates(ctx, siteId, receiver.id);
    expect(ignored.urls).toEqual([]);
    expect(ignored.note).toMatch(/warms nothing whatever the templates: Topic products\/delete/);
  });

  it("says a deploy receiver takes no templates", async () => {
    const receiver = await createReceiver(ctx, siteId, { kind: "netlify" });
    const preview = await previewTemplates(ctx, siteId, receiver.id);
    expect(preview.note).toMatch(/netlify receiver takes no templates/);
    expect(preview.templates).toEqual([]);
  });

  it("is another organization's 404", async () => {
    const receiver = await createReceiver(ctx, siteId, { kind: "strapi" });
    await expect(previewTemplates(other, siteId, receiver.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});
