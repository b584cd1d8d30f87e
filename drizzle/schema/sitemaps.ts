import { bigint, integer, jsonb, pgTable, primaryKey, real, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
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
    /** When its URL list last changed (a re-read that finds the same list, or a 304, leaves it). */
    lastChangedAt: timestamp("last_changed_at", { withTimezone: true }),
    /**
     * The validators of the last read (ETag, Last-Modified), kept only when it was a single document
     * (an index's children change without the index changing): the next read is a conditional GET.
     */
    etag: text("etag"),
    lastModified: text("last_modified"),
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
    /** The sitemap's <priority> (0.0 to 1.0), when it gives one: `order: priority` warms the highest first. */
    priority: real("priority"),
  },
  (t) => [uniqueIndex("sitemap_urls_sitemap_generation_url_key").on(t.sitemapId, t.generation, t.url)],
);

/** What reading one document counted: URLs skipped by reason, and the entries read before a cut (null: not cut off). */
export type DocumentTally = { invalid: number; offDomain: number; tooLong: number; duplicates: number; cutOffAfter: number | null };

/**
 * The child sitemaps stored whole into a generation still being written. A processing that stops
 * half-way (an error, a crash) is taken up again on the same generation, and its retry reads only
 * the children not listed here: the ones that failed, or were not reached.
 */
export const sitemapDocuments = pgTable(
  "sitemap_documents",
  {
    sitemapId: integer("sitemap_id")
      .notNull()
      .references(() => sitemaps.id, { onDelete: "cascade" }),
    generation: integer("generation").notNull(),
    url: text("url").notNull(),
    tally: jsonb("tally").$type<DocumentTally>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.sitemapId, t.generation, t.url] })],
);
