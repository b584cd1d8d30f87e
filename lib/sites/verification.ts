import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { sites } from "@/drizzle/schema";
import type { AccountContext } from "@/lib/context";
import type { Database } from "@/lib/db";
import { notFound } from "@/lib/core/errors";
import type { SiteRow } from "@/lib/sites/site-row";
import { withinSiteLimit } from "./site-limit";

/**
 * The site's verification secret: sent on every warming call as `Preheat-Verification`, so that a
 * firewall rule can let exactly Preheat through. Not an account credential: its owner pastes it
 * into a firewall rule and may read it again; rotating it is how a leaked one is replaced.
 */
export function newVerificationSecret(): string {
  return randomBytes(32).toString("base64url");
}

/** The site with its secret, made now for a site registered before secrets existed (the first to ask makes it; others read it). */
export async function withVerificationSecret(db: Database, site: SiteRow): Promise<SiteRow> {
  if (site.verificationSecret) return site;
  const [made] = await db
    .update(sites)
    .set({ verificationSecret: sql`coalesce(${sites.verificationSecret}, ${newVerificationSecret()})` })
    .where(eq(sites.id, site.id))
    .returning();
  return made ?? site;
}

/**
 * A new secret, from now the one calls send: a run in progress takes it up when its next job starts
 * (within about 20 s); the old secret is not sent again.
 */
export async function rotateVerificationSecret(ctx: AccountContext, siteId: number): Promise<string> {
  const secret = newVerificationSecret();
  const [row] = await ctx.db
    .update(sites)
    .set({ verificationSecret: secret })
    .where(and(eq(sites.id, siteId), eq(sites.accountId, ctx.accountId), withinSiteLimit(ctx, sites.id)))
    .returning({ id: sites.id });
  if (!row) throw notFound("Site");
  return secret;
}
