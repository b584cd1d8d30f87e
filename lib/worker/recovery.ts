import { eq, inArray, sql } from "drizzle-orm";
import type PgBoss from "pg-boss";
import { runs, sitemaps, webhookMessages } from "@/drizzle/schema";
import type { Database } from "@/lib/db";
import { jobKey, sendJob } from "@/lib/jobs";
import type { RegionCode } from "@/lib/core/regions";
import { rowsOf } from "@/lib/db/rows";
import { pendingRegionsOf } from "@/lib/runs/finish";

/**
 * On the embedded database there is one process: an `active` job found at start-up belonged to a
 * process that died. Fail it now (pg-boss then retries it) instead of waiting for its expiry.
 */
export async function failOrphans(boss: PgBoss, db: Database) {
  const orphans = await db.execute<{ id: string; name: string }>(sql`select id, name from pgboss.job where state = 'active'`);
  for (const { id, name } of rowsOf<{ id: string; name: string }>(orphans)) await boss.fail(name, id, { message: "The worker stopped during this job; it is retried." });
}

/** Keys of the jobs pg-boss still holds (queued, waiting for a retry, or running). */
async function liveJobKeys(db: Database): Promise<Set<string>> {
  const result = await db.execute<{ key: string }>(sql`select singleton_key as key from pgboss.job where state in ('created', 'retry', 'active') and singleton_key is not null`);
  return new Set(rowsOf<{ key: string }>(result).map((r) => r.key));
}

/** Queues again the records whose job was lost (sent before a crash, or never sent). */
export async function requeueRecords(db: Database) {
  const live = await liveJobKeys(db);
  const open = await db
    .select({ id: sitemaps.id, siteId: sitemaps.siteId })
    .from(sitemaps)
    .where(inArray(sitemaps.status, ["waiting", "processing"]));
  // Sent together: the driver inserts jobs sent at once with one statement.
  const sends: Promise<void>[] = [];
  for (const s of open) {
    const payload = { sitemapId: s.id, siteId: s.siteId };
    if (!live.has(jobKey("sitemap.process", payload))) sends.push(sendJob("sitemap.process", payload));
  }
  // Pending runs wait for planning.
  const pending = await db.select({ id: runs.id, siteId: runs.siteId }).from(runs).where(eq(runs.status, "pending"));
  for (const r of pending) {
    const payload = { runId: r.id, siteId: r.siteId };
    if (!live.has(jobKey("run.plan", payload))) sends.push(sendJob("run.plan", payload));
  }
  // Webhook events not delivered yet, whose job (or its wait for a retry) was lost.
  const undelivered = await db.select({ messageId: webhookMessages.id, webhookId: webhookMessages.webhookId }).from(webhookMessages).where(eq(webhookMessages.status, "pending"));
  for (const payload of undelivered) if (!live.has(jobKey("webhook.deliver", payload))) sends.push(sendJob("webhook.deliver", payload));
  // Running ones were warming when their worker stopped (their hand-over job could not be queued
  // any more): each region with batches left gets its job back; a run with none left gets one job,
  // which ends it.
  const running = await db.select({ id: runs.id, siteId: runs.siteId, regions: runs.regions }).from(runs).where(eq(runs.status, "running"));
  const unwarmed = await pendingRegionsOf(
    db,
    running.map((r) => r.id),
  );
  for (const run of running) {
    const left = unwarmed.get(run.id) ?? [];
    for (const region of left.length ? left : run.regions.slice(0, 1)) {
      const payload = { runId: run.id, siteId: run.siteId, region: region as RegionCode };
      if (!live.has(jobKey("run.batch", payload))) sends.push(sendJob("run.batch", payload));
    }
  }
  await Promise.all(sends);
}
