import { and, eq, type SQL, sql } from "drizzle-orm";
import { accounts, apiKeys, boostHooks, boosts, changeReceivers, invitations, memberships, sitemaps, sites, trafficSources, users, webhooks } from "@/drizzle/schema";
import type { Database } from "@/lib/db";
import { inIds } from "@/lib/db/recordset";
import { rowsOf } from "@/lib/db/rows";

/** A target as the log holds it: its type, and its id as text. */
type TargetRef = { type: string; id: string | null };

/** What the log says of a target now: its name, null when it has none; `deleted`, null for a kind that is not looked up. */
export type TargetNow = { name: string | null; deleted: boolean | null };

/** One kind's names, for the ids given, within the organization: a row per target that still exists. */
type Lookup = (accountId: number, ids: readonly number[]) => SQL;

const ofSite = (siteId: SQL | typeof sites.id, accountId: number) => sql`exists (select 1 from ${sites} where ${sites.id} = ${siteId} and ${sites.accountId} = ${accountId})`;

/**
 * How each kind of target is named: the name a member knows it by in the dashboard. A webhook by its
 * description, else its URL's origin only: a URL's path may hold a secret (a Slack webhook's does),
 * and the log never shows one. Names are read when the log is, so that a renamed target reads as it
 * is named now; a deleted one has no row left to name it.
 */
const LOOKUPS: Record<string, Lookup> = {
  site: (accountId, ids) => sql`select ${sites.id} as id, ${sites.domain} as name from ${sites} where ${sites.accountId} = ${accountId} and ${inIds(sites.id, ids)}`,
  sitemap: (accountId, ids) => sql`select ${sitemaps.id} as id, ${sitemaps.url} as name from ${sitemaps} where ${inIds(sitemaps.id, ids)} and ${ofSite(sql`${sitemaps.siteId}`, accountId)}`,
  boost: (accountId, ids) => sql`select ${boosts.id} as id, ${boosts.name} as name from ${boosts} where ${inIds(boosts.id, ids)} and ${ofSite(sql`${boosts.siteId}`, accountId)}`,
  hook: (accountId, ids) => sql`select h.id, h.name from ${boostHooks} h join ${boosts} b on b.id = h.boost_id where ${inIds(sql`h.id`, ids)} and ${ofSite(sql`b.site_id`, accountId)}`,
  webhook: (accountId, ids) =>
    sql`select ${webhooks.id} as id, coalesce(nullif(${webhooks.description}, ''), substring(${webhooks.url} from '^[a-zA-Z]+://[^/?#]+')) as name
        from ${webhooks} where ${webhooks.accountId} = ${accountId} and ${inIds(webhooks.id, ids)}`,
  key: (accountId, ids) => sql`select ${apiKeys.id} as id, ${apiKeys.name} as name from ${apiKeys} where ${apiKeys.accountId} = ${accountId} and ${inIds(apiKeys.id, ids)}`,
  // A member by address while they belong to the organization; one who left is gone from its log's view.
  user: (accountId, ids) =>
    sql`select ${users.id} as id, ${users.email} as name from ${users} join ${memberships} on ${and(eq(memberships.userId, users.id), eq(memberships.accountId, accountId))} where ${inIds(users.id, ids)}`,
  invitation: (accountId, ids) => sql`select ${invitations.id} as id, ${invitations.email} as name from ${invitations} where ${invitations.accountId} = ${accountId} and ${inIds(invitations.id, ids)}`,
  traffic_source: (accountId, ids) =>
    sql`select ${trafficSources.id} as id, ${trafficSources.name} as name from ${trafficSources} where ${trafficSources.accountId} = ${accountId} and ${inIds(trafficSources.id, ids)}`,
  // A receiver has no name of its own: the system it receives from is what the site page lists it by.
  change_receiver: (accountId, ids) =>
    sql`select ${changeReceivers.id} as id, ${changeReceivers.kind} as name from ${changeReceivers} where ${changeReceivers.accountId} = ${accountId} and ${inIds(changeReceivers.id, ids)}`,
  // Only the organization itself: an entry may name another one (one a member created), whose name is not this log's to show.
  organization: (accountId, ids) => sql`select ${accounts.id} as id, ${accounts.name} as name from ${accounts} where ${accounts.id} = ${accountId} and ${inIds(accounts.id, ids)}`,
};

const keyOf = (type: string, id: string) => `${type}:${id}`;

/** What the log knows of a target whose kind it does not look up (a session), or that has no id. */
const UNKNOWN: TargetNow = { name: null, deleted: null };

/**
 * What each target of a page of the log is now: one statement per kind on the page, whatever its
 * length. Answers the function that tells it of each target.
 */
export async function targetsNow(db: Database, accountId: number, targets: readonly TargetRef[]): Promise<(target: TargetRef) => TargetNow> {
  const idsByKind = new Map<string, Set<number>>();
  for (const target of targets) {
    if (!(target.type in LOOKUPS) || target.id === null || !/^\d{1,9}$/.test(target.id)) continue;
    idsByKind.set(target.type, (idsByKind.get(target.type) ?? new Set()).add(Number(target.id)));
  }
  const found = new Map<string, TargetNow>();
  await Promise.all(
    [...idsByKind].map(async ([type, ids]) => {
      const rows = rowsOf<{ id: number; name: string | null }>(await db.execute(LOOKUPS[type]!(accountId, [...ids])));
      const named = new Map(rows.map((row) => [Number(row.id), row.name]));
      for (const id of ids) found.set(keyOf(type, String(id)), named.has(id) ? { name: named.get(id) ?? null, deleted: false } : { name: null, deleted: true });
    }),
  );
  return (target) => (target.id === null ? undefined : found.get(keyOf(target.type, target.id))) ?? UNKNOWN;
}
