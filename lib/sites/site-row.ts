import type { sites } from "@/drizzle/schema";

/** A site as stored. */
export type SiteRow = typeof sites.$inferSelect;
