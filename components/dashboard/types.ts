import type { z } from "zod";
import type { auditEventSchema } from "@/lib/accounts/audit-schemas";
import type { ApiKeyView } from "@/lib/auth/api-key-schemas";
import type { keepWarmStateSchema } from "@/lib/boosts/keep-warm-schemas";
import type { boostSchema } from "@/lib/boosts/schemas";
import type { usageSchema } from "@/lib/boosts/usage-schemas";
import type { OutboxItem } from "@/lib/email/outbox";
import type { runDetailSchema, runListItemSchema, warmRunSchema } from "@/lib/runs/schemas";
import type { sitemapSchema } from "@/lib/sitemaps/schemas";
import type { siteSchema } from "@/lib/sites/schemas";

/** The API's answer shapes, inferred from the same zod schemas that validate and document them. */
export type Site = z.output<typeof siteSchema>;
export type Sitemap = z.output<typeof sitemapSchema>;
export type Boost = z.output<typeof boostSchema>;
export type RunListItem = z.output<typeof runListItemSchema>;
export type RunDetail = z.output<typeof runDetailSchema>;
export type WarmRun = z.output<typeof warmRunSchema>;
export type AuditEvent = z.output<typeof auditEventSchema>;
export type Usage = z.output<typeof usageSchema>;
export type Page<T> = { data: T[]; total: number; limit: number; offset: number };
export type { ApiKeyView, OutboxItem };
export type KeepWarmState = z.output<typeof keepWarmStateSchema>;
