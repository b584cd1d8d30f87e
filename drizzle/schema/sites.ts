import { boolean, doublePrecision, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
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
    /** Warming calls at once, service-wide; null: the service default (PREHEAT_SITE_CONCURRENCY). */
    maxConcurrency: integer("max_concurrency"),
    /** Warming calls started per second, service-wide; null: no rate cap. */
    maxRequestsPerSecond: doublePrecision("max_requests_per_second"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("sites_account_domain_key").on(t.accountId, t.domain)],
);
