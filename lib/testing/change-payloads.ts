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
