import { getBoostRow } from "@/lib/boosts/service";
import type { AccountContext } from "@/lib/context";
import { getSite } from "@/lib/sites/service";

/**
 * Throws the refusal the operation itself would give (404) when the caller does not see the site or
 * boost its path names: a key limited to other sites, a record deleted or another organization's.
 * Run before a stored answer is replayed, which the operation's own checks never see.
 */
export async function assertPathReachable(ctx: AccountContext, params: unknown): Promise<void> {
  const named = (params ?? {}) as { siteId?: unknown; boostId?: unknown };
  if (typeof named.siteId === "number") await getSite(ctx, named.siteId);
  if (typeof named.boostId === "number") await getBoostRow(ctx.db, ctx, named.boostId);
}
