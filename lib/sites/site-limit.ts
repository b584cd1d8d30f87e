import { type AnyColumn, inArray, type SQL } from "drizzle-orm";
import type { AccountContext } from "@/lib/context";
import { ForbiddenError } from "@/lib/core/errors";

/** Who reads: the organization, and the sites a site-limited API key is limited to (null or absent: every site). */
export type SiteOwner = Pick<AccountContext, "accountId" | "siteIds">;

/**
 * The one condition that limits a read to the sites the caller sees, on a column holding a site id
 * (`sites.id`, `runs.site_id`, `boosts.site_id`…): undefined for a caller that sees every site of
 * its organization, which drizzle's `and` drops. Used beside the organization's own condition, so
 * that a site outside a limited key's list is not found, exactly like another organization's.
 */
export function withinSiteLimit(owner: Pick<AccountContext, "siteIds">, siteId: AnyColumn): SQL | undefined {
  return owner.siteIds ? inArray(siteId, owner.siteIds) : undefined;
}

/** The refusal, to a key limited to some sites, of an operation about the whole organization. */
export const siteLimitedKey = () =>
  new ForbiddenError(
    "This API key is limited to some sites: it cannot register a site nor manage webhooks, which concern the whole organization. Use a key for every site.",
    undefined,
    "site_limited_key",
  );

/** An operation about the whole organization refuses a key limited to some sites: the API and the MCP server both ask here. */
export function assertKeyReaches(operation: { wholeOrganization?: boolean }, key: { siteIds: readonly number[] | null }): void {
  if (operation.wholeOrganization && key.siteIds) throw siteLimitedKey();
}
