import type { RunTrigger } from "@/lib/core/run-trigger";
import type { Database } from "@/lib/db";

/**
 * What every account-scoped domain verb needs: the organization comes from here, never from input.
 * `siteIds`, for a site-limited API key: the only sites it may see; any other is not found.
 * `trigger`: who is calling, as a run started by this call records it.
 */
export type AccountContext = { db: Database; accountId: number; siteIds?: number[] | null; trigger?: RunTrigger };
