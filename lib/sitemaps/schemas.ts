import { z } from "zod";
import { timestamp } from "@/lib/core/primitives";

const SITEMAP_STATUSES = ["waiting", "processing", "done", "error"] as const;

export const addSitemapBody = z
  .object({
    url: z.string().optional().meta({
      description:
        "Absolute URL of an XML sitemap, sitemap index (gzip too), RSS/Atom feed, plain-text sitemap (one URL a line) or robots.txt (its `Sitemap:` lines are followed) on the site's domain (`www.` variants count).",
      example: "https://www.example.com/sitemap.xml",
    }),
    discover: z.literal(true).optional().meta({
      description:
        "Instead of `url`: find the site's sitemaps (its robots.txt's `Sitemap:` lines, else /sitemap.xml, else /sitemap_index.xml; HTTPS first, then HTTP) and add each one found. Answers 201 with `{data: [Sitemap…]}`, or 422 saying where it looked.",
    }),
  })
  .superRefine((body, ctx) => {
    if (body.url === undefined && !body.discover) ctx.addIssue({ code: "custom", path: ["url"], message: "Required: a sitemap URL, or discover: true" });
    if (body.url !== undefined && body.discover) ctx.addIssue({ code: "custom", path: ["discover"], message: "give either url or discover, not both" });
  })
  .meta({ id: "AddSitemapRequest" });

export const sitemapSchema = z
  .object({
    id: z.number().int(),
    site_id: z.number().int(),
    url: z.string(),
    status: z.enum(SITEMAP_STATUSES).meta({ description: "`waiting` (queued) → `processing` → `done` or `error`; re-processing starts again from `waiting`." }),
    status_message: z.string().nullable().meta({ description: "URL count when done, the reason when in error; null at creation." }),
    url_count: z.number().int().meta({ description: "URLs on the site's domain found by the last processing." }),
    last_processed_at: timestamp.nullable().meta({ description: "When the sitemap was last read (a 304 to the conditional GET counts); null until its first read ends." }),
    last_changed_at: timestamp.nullable().meta({ description: "When its URL list last changed: set by the first read, then only by a read that finds other URLs than the list it had." }),
    created_at: timestamp,
  })
  .meta({ id: "Sitemap" });

export type SitemapPayload = z.infer<typeof sitemapSchema>;

export const discoveredSitemapsSchema = z
  .object({ data: z.array(sitemapSchema) })
  .meta({ id: "DiscoveredSitemaps", description: "The sitemaps found and added by `discover: true` (those already registered included)." });
