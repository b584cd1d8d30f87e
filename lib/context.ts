import type { Database } from "@/lib/db";

/** What every account-scoped domain verb needs: the account comes from here, never from input. */
export type AccountContext = { db: Database; accountId: number };
