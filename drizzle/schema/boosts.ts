import type { UrlOrder } from "@/lib/core/url-orders";
import { boolean, index, integer, jsonb, pgTable, primaryKey, real, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import type { z } from "zod";
import type { variationsValueSchema } from "@/lib/core/variations";
import { createdAt, id, timestamps } from "./columns";
import { sitemaps } from "./sitemaps";
import { sites } from "./sites";

/** The variations column of boosts and runs, as the API gives it back. */
export type VariationsValue = z.infer<typeof variationsValueSchema>;

/**
 * What every call of a boost or warm sends beyond its variant: extra headers, cookies, extra user
 * agents, and Basic auth whose password is kept encrypted (AES-256-GCM under PREHEAT_SECRETS_KEY).
 */
export type RequestProfileValue = {
  headers?: Record<string, string>;
  cookies?: Record<string, string>;
  custom_user_agents?: string[];
  basic_auth?: { username: string; password_encrypted: string };
};

export const boosts = pgTable(
  "boosts",
  {
    id: id(),
    siteId: integer("site_id")
      .notNull()
      .references(() => sites.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    status: text("status").notNull().default("pending"),
    sourceType: text("source_type").notNull(),
    regions: text("regions").array().notNull(),
    sourceUrl: text("source_url"),
    urlRoot: text("url_root").notNull().default("/"),
    excludeExt: text("exclude_ext").array(),
    variations: jsonb("variations").$type<VariationsValue>(),
    contentTypes: text("content_types").array(),
    ignoreErrors: boolean("ignore_errors").notNull().default(false),
    /** After each run's calls, request every cacheable miss once more: did it become a hit? */
    verify: boolean("verify").notNull().default(false),
    /** After each run's calls, ask a sample of its URLs as real visitors' browsers would (`verify: "visitors"`). */
    verifyVisitors: boolean("verify_visitors").notNull().default(false),
    requestProfile: jsonb("request_profile").$type<RequestProfileValue>(),
    reportEmailEnabled: boolean("report_email_enabled").notNull().default(true),
    schedule: text("schedule"),
    nextRunAt: timestamp("next_run_at", { withTimezone: true }),
    callLimit: integer("call_limit"),
    /** The order URLs are warmed in (lib/core/url-orders.ts): as listed, <priority>, <lastmod>, or most visited first (lib/traffic). */
    order: text("order").$type<UrlOrder>().notNull().default("sitemap"),
    /** Warm only the URLs that are new, or whose lastmod changed, since the boost's last completed run. */
    onlyChanged: boolean("only_changed").notNull().default(false),
    /** Re-warm each URL × variant × region as its shared-cache lifetime ends (ADR 0010), beside or instead of the schedule. */
    keepWarm: boolean("keep_warm").notNull().default(false),
    /** A share of the lifetime to re-warm ahead of expiry, for CDNs that refresh ahead on a request; 0 re-warms just after it. */
    keepWarmLead: real("keep_warm_lead").notNull().default(0),
    /** The keep-warm calls the boost may make a calendar month (UTC); null: no budget of its own. */
    monthlyCallBudget: integer("monthly_call_budget"),
    /** The `number` of the boost's latest run: the trigger runs_number (migration 0049) counts it up as each run is added, never down. */
    lastRunNumber: integer("last_run_number").notNull().default(0),
    ...timestamps,
  },
  (t) => [index("boosts_site_idx").on(t.siteId), index("boosts_next_run_idx").on(t.nextRunAt)],
);

/** Which sitemaps feed a boost; a deleted sitemap leaves its boosts. */
export const boostSitemaps = pgTable(
  "boost_sitemaps",
  {
    boostId: integer("boost_id")
      .notNull()
      .references(() => boosts.id, { onDelete: "cascade" }),
    sitemapId: integer("sitemap_id")
      .notNull()
      .references(() => sitemaps.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.boostId, t.sitemapId] })],
);

/** A boost's secret trigger URL (deploy hook): only the token's hash is kept, as for API keys. */
export const boostHooks = pgTable(
  "boost_hooks",
  {
    id: id(),
    boostId: integer("boost_id")
      .notNull()
      .references(() => boosts.id, { onDelete: "cascade" }),
    name: text("name"),
    prefix: text("prefix").notNull(),
    hash: text("hash").notNull(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("boost_hooks_hash_key").on(t.hash), index("boost_hooks_boost_idx").on(t.boostId)],
);
