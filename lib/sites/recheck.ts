import { and, asc, eq, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import { sites } from "@/drizzle/schema";
import { setting } from "@/lib/config";
import type { Database } from "@/lib/db";
import { sendJob } from "@/lib/jobs";
import { iso } from "@/lib/core/primitives";
import { checkOwnership } from "./ownership";
import type { OwnershipRecheckPayload } from "./schemas";
import type { SiteRow } from "@/lib/sites/site-row";

/** Days a site keeps its validation after a recheck first misses its proof: the owner is told at once. */
const OWNERSHIP_NOTICE_DAYS = 7;
const DAY_MS = 86_400_000;
/** Rechecks handed out per cron tick: a minute's worth of work for the workers, not a flood. */
const RECHECKS_PER_TICK = 50;

const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS);

/**
 * A validated site is due when its proof was last seen PREHEAT_OWNERSHIP_RECHECK_DAYS ago, or,
 * once a recheck missed it, a day after the last look (so that a proof put back ends the notice soon).
 */
function dueCondition(now: Date) {
  const lastLook = sql`coalesce(${sites.ownershipCheckedAt}, ${sites.validatedAt}, ${sites.createdAt})`;
  return and(
    eq(sites.validated, true),
    or(and(isNull(sites.ownershipLostAt), lte(lastLook, daysBefore(now, setting("PREHEAT_OWNERSHIP_RECHECK_DAYS")))), and(isNotNull(sites.ownershipLostAt), lte(lastLook, daysBefore(now, 1)))),
  );
}

/**
 * Run by the cron tick: claims the validated sites due for a recheck (their last look moves to now,
 * so that the next tick does not hand them out again) and queues one `ownership.recheck` job each.
 * A job lost before it ran leaves its site to the next period.
 */
export async function queueDueOwnershipChecks(db: Database, now = new Date()): Promise<number[]> {
  const due = db.select({ id: sites.id }).from(sites).where(dueCondition(now)).orderBy(asc(sites.id)).limit(RECHECKS_PER_TICK);
  const claimed = await db
    .update(sites)
    .set({ ownershipCheckedAt: now })
    .where(and(sql`${sites.id} in ${due}`, dueCondition(now)))
    .returning({ id: sites.id });
  await Promise.all(claimed.map(({ id }) => sendJob("ownership.recheck", { siteId: id })));
  return claimed.map(({ id }) => id);
}

/** What a recheck found; `site` is the row after it, for the notices that follow (lib/worker). */
export type RecheckOutcome = { outcome: "held" | "still_missing" | "skipped" } | { outcome: "proof_lost" | "unvalidated"; site: SiteRow };

/** When a site whose proof went missing at `lostAt` stops being validated. */
export const unvalidatesAt = (lostAt: Date) => new Date(lostAt.getTime() + OWNERSHIP_NOTICE_DAYS * DAY_MS);

/**
 * Looks for a validated site's proof again. Found: any notice ends. Missing the first time: the
 * owner is to be e-mailed (`proof_lost`) and the site stays validated for OWNERSHIP_NOTICE_DAYS;
 * still missing after them: the site is unvalidated (capped like any unvalidated site) and the
 * owner told again.
 */
export async function recheckOwnership(db: Database, siteId: number, now = new Date()): Promise<RecheckOutcome> {
  const [site] = await db.select().from(sites).where(eq(sites.id, siteId));
  if (!site?.validated) return { outcome: "skipped" };
  const check = await checkOwnership(site.domain, site.validationToken, site.validationMethod);
  const unchangedSince = and(eq(sites.id, site.id), eq(sites.validated, true));
  if ("proof" in check) {
    await db.update(sites).set({ ownershipCheckedAt: now, ownershipLostAt: null, ownershipProblem: null, validationMethod: check.proof.method }).where(unchangedSince);
    return { outcome: "held" };
  }
  if (!site.ownershipLostAt) {
    const [marked] = await db
      .update(sites)
      .set({ ownershipCheckedAt: now, ownershipLostAt: now, ownershipProblem: check.problem })
      .where(and(unchangedSince, isNull(sites.ownershipLostAt)))
      .returning();
    return marked ? { outcome: "proof_lost", site: marked } : { outcome: "still_missing" };
  }
  if (now < unvalidatesAt(site.ownershipLostAt)) {
    await db.update(sites).set({ ownershipCheckedAt: now, ownershipProblem: check.problem }).where(unchangedSince);
    return { outcome: "still_missing" };
  }
  const [revoked] = await db
    .update(sites)
    .set({ validated: false, validatedAt: null, validationMethod: null, ownershipCheckedAt: now, ownershipProblem: check.problem })
    .where(and(unchangedSince, eq(sites.ownershipLostAt, site.ownershipLostAt)))
    .returning();
  return revoked ? { outcome: "unvalidated", site: revoked } : { outcome: "skipped" };
}

/** Where a site stands in its rechecks, as the API and the site page show it. */
export function ownershipRecheckOf(site: SiteRow): OwnershipRecheckPayload {
  const lastLook = site.ownershipCheckedAt ?? site.validatedAt;
  const next = !site.validated || !lastLook ? null : new Date(lastLook.getTime() + (site.ownershipLostAt ? 1 : setting("PREHEAT_OWNERSHIP_RECHECK_DAYS")) * DAY_MS);
  return {
    last_checked_at: iso(site.ownershipCheckedAt),
    next_check_at: iso(next),
    proof_missing_since: iso(site.ownershipLostAt),
    unvalidates_at: site.validated && site.ownershipLostAt ? unvalidatesAt(site.ownershipLostAt).toISOString() : null,
    problem: site.ownershipProblem,
  };
}
