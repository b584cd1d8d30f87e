import { bigint, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns";
import { sites } from "./sites";

export const sitemaps = pgTable(
  "sitemaps",
  {
    id: id(),
    siteId: integer("site_id")
      .notNull()
      .references(() => sites.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    /** waiting → processing → done | error */
    status: text("status").notNull().default("waiting"),
    statusMessage: text("status_message"),
    urlCount: integer("url_count").notNull().default(0),
    /** The generation of sitemap_urls that is this sitemap's list; a new list is written beside it, then swapped in. */
    urlsGeneration: integer("urls_generation").notNull().default(0),
    /** Processing attempts since it was last queued: a sitemap that keeps failing (or crashing) ends in `error`. */
    processingAttempts: integer("processing_attempts").notNull().default(0),
    lastProcessedAt: timestamp("last_processed_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("sitemaps_site_url_key").on(t.siteId, t.url)],
);

export const sitemapUrls = pgTable(
  "sitemap_urls",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    sitemapId: integer("sitemap_id")
      .notNull()
      .references(() => sitemaps.id, { onDelete: "cascade" }),
    generation: integer("generation").notNull().default(0),
    url: text("url").notNull(),
    lastmod: timestamp("lastmod", { withTimezone: true }),
  },
  (t) => [uniqueIndex("sitemap_urls_sitemap_generation_url_key").on(t.sitemapId, t.generation, t.url)],
);
