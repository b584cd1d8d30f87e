/** Payloads as the systems' documentation shows them, shared by the receivers' domain and API tests. */

/** A Contentful entry as its webhooks send it (ContentManagement.Entry.publish). */
export const contentfulEntry = (contentType: string) =>
  JSON.stringify({
    metadata: { tags: [] },
    sys: {
      type: "Entry",
      id: "5KsDBWseXY6QegucYAoacS",
      space: { sys: { type: "Link", linkType: "Space", id: "yadj1kx9rmg0" } },
      environment: { sys: { id: "master", type: "Link", linkType: "Environment" } },
      contentType: { sys: { type: "Link", linkType: "ContentType", id: contentType } },
      revision: 1,
      createdAt: "2026-11-28T11:59:00.000Z",
      updatedAt: "2026-11-28T12:00:00.000Z",
    },
    fields: { title: { "en-US": "Hello world" }, slug: { "en-US": "hello-world" } },
  });

/** Shopify's documented `products/update` payload, shortened. */
export const shopifyProduct = (handle: string | null) =>
  JSON.stringify({
    id: 788032119674292900,
    title: "Example T-Shirt",
    body_html: "An example T-Shirt",
    vendor: "Acme",
    product_type: "Shirts",
    created_at: null,
    ...(handle === null ? {} : { handle }),
    updated_at: "2021-12-31T19:00:00-05:00",
    published_at: "2021-12-31T19:00:00-05:00",
    status: "active",
    variants: [{ id: 642667041472713900, product_id: 788032119674292900, title: "", price: "19.99", sku: "example-shirt-s" }],
  });
