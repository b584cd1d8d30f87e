import { bigint, index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
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
    url: text("url").notNull(),
    lastmod: timestamp("lastmod", { withTimezone: true }),
  },
  (t) => [uniqueIndex("sitemap_urls_sitemap_url_key").on(t.sitemapId, t.url), index("sitemap_urls_sitemap_idx").on(t.sitemapId)],
);
