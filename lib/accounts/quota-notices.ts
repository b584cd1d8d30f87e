import { and, asc, eq, isNull } from "drizzle-orm";
import { accounts, memberships, quotaNotices, users } from "@/drizzle/schema";
import { publicBaseUrl } from "@/lib/config/base-url";
import type { Database } from "@/lib/db";
import { queueEmail } from "@/lib/email/send";
import { sendJob } from "@/lib/jobs";
import { planOf } from "@/lib/plans/limits";
import { getQuota, quotaPeriod } from "@/lib/runs/quota";

/** Notices e-mailed per tick at most; the rest wait for the next tick. */
const NOTICES_PER_TICK = 100;

/**
 * E-mails each quota line reached (80 %, 100 %) to the organization's owners, once: the line was
 * recorded with the count that reached it (lib/runs/quota.ts); this marks it e-mailed. A line of a
 * month already over is marked without an e-mail: its news is stale.
 */
export async function sendQuotaNotices(db: Database, now = new Date()): Promise<number> {
  const due = await db
    .select({ notice: quotaNotices, organization: accounts.name })
    .from(quotaNotices)
    .innerJoin(accounts, eq(accounts.id, quotaNotices.accountId))
    .where(isNull(quotaNotices.emailedAt))
    .orderBy(asc(quotaNotices.reachedAt))
    .limit(NOTICES_PER_TICK);
  const current = quotaPeriod(now).start.getTime();
  let sent = 0;
  for (const { notice, organization } of due) {
    if (notice.periodStart.getTime() === current) sent += await emailOwners(db, notice, organization, now);
    await db
      .update(quotaNotices)
      .set({ emailedAt: now })
      .where(and(eq(quotaNotices.accountId, notice.accountId), eq(quotaNotices.periodStart, notice.periodStart), eq(quotaNotices.percent, notice.percent)));
  }
  return sent;
}

async function emailOwners(db: Database, notice: typeof quotaNotices.$inferSelect, organization: string, now: Date): Promise<number> {
  const [owners, quota, plan] = await Promise.all([
    db
      .select({ email: users.email })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.accountId, notice.accountId), eq(memberships.role, "owner"))),
    getQuota(db, notice.accountId, now),
    planOf(db, notice.accountId),
  ]);
  const month = notice.periodStart.toISOString().slice(0, 7);
  for (const owner of owners) {
    const email = await queueEmail(db, {
      accountId: notice.accountId,
      dedupeKey: `quota-notice:${notice.accountId}:${month}:${notice.percent}:${owner.email}`,
      to: owner.email,
      template: "quota-notice",
      props: {
        organization,
        percent: notice.percent as 80 | 100,
        used: quota.used,
        limit: quota.limit,
        plan: plan.name,
        periodEnd: quota.periodEnd.toISOString(),
        usageUrl: `${publicBaseUrl()}/usage`,
      },
    });
    if (email.status === "pending") await sendJob("email.deliver", { emailId: email.id });
  }
  return owners.length;
}
