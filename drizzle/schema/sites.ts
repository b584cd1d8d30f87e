import { sql } from "drizzle-orm";
import { boolean, doublePrecision, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt, id } from "./columns";

export const sites = pgTable(
  "sites",
  {
    id: id(),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    domain: text("domain").notNull(),
    validationToken: text("validation_token").notNull(),
    validated: boolean("validated").notNull().default(false),
    validatedAt: timestamp("validated_at", { withTimezone: true }),
    /** `html_file` or `meta_tag`: which ownership proof succeeded. */
    validationMethod: text("validation_method"),
    /** When the ownership proof of a validated site was last looked for again (PREHEAT_OWNERSHIP_RECHECK_DAYS). */
    ownershipCheckedAt: timestamp("ownership_checked_at", { withTimezone: true }),
    /** When a recheck first found the proof gone (the owner is e-mailed then); null while the proof holds. Unvalidated 7 days later. */
    ownershipLostAt: timestamp("ownership_lost_at", { withTimezone: true }),
    /** Why the last recheck failed, as the validation check words it. */
    ownershipProblem: text("ownership_problem"),
    /** Sent on every warming call as `Preheat-Verification`, so that a firewall rule can let exactly Preheat through; rotatable. */
    verificationSecret: text("verification_secret"),
    /** Per user-agent class, the last time bot protection blocked its calls here: `{ blocked_by, at, run_id }`. */
    blockedVerdicts: jsonb("blocked_verdicts").$type<Record<string, { blocked_by: string; at: string; run_id: number }>>(),
    /** Warming calls at once, service-wide; null: the service default (PREHEAT_SITE_CONCURRENCY). */
    maxConcurrency: integer("max_concurrency"),
    /** Warming calls started per second, service-wide; null: no rate cap. */
    maxRequestsPerSecond: doublePrecision("max_requests_per_second"),
    /** The Crawl-delay its robots.txt asks of Preheat (or of every crawler), capped at 60 s; null when it asks none. */
    crawlDelaySeconds: doublePrecision("crawl_delay_seconds"),
    /** When its robots.txt was last read for the Crawl-delay (once a day at most). */
    robotsReadAt: timestamp("robots_read_at", { withTimezone: true }),
    /**
     * The boost whose variants and regions warm the site's changes (POST /v1/sites/{siteId}/changes, the
     * change receivers); null: a warm's defaults. No foreign key (boosts reference sites): deleting the
     * boost clears it, and a reader finds no boost for a dangling id.
     */
    changeBoostId: integer("change_boost_id"),
    /**
     * The beacon's public key (`data-site` on its script tag): it names the site in page views without
     * giving its id away. Public by design (it sits in the site's HTML); only the site's own pages' posts count.
     */
    beaconKey: text("beacon_key").notNull().default(sql`substr(md5(random()::text || clock_timestamp()::text), 1, 20)`),
    /** The `number` of the site's latest run without a boost (warms, changes): the trigger runs_number (migration 0049) counts it up, never down. */
    lastWarmNumber: integer("last_warm_number").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("sites_account_domain_key").on(t.accountId, t.domain), uniqueIndex("sites_beacon_key").on(t.beaconKey)],
);
