import { and, arrayContains, eq } from "drizzle-orm";
import { runs, sitemaps, sites, webhookMessages, webhooks } from "@/drizzle/schema";
import type { Database } from "@/lib/db";
import { sendJob } from "@/lib/jobs";
import { getRun } from "@/lib/runs/service";
import { toSitemap } from "@/lib/sitemaps/service";
import type { Envelope } from "@/lib/webhooks/types";
import type { WebhookEvent } from "./schemas";

/** The account's enabled webhooks that subscribe to the event. */
function subscribersOf(db: Database, accountId: number, event: WebhookEvent): Promise<{ id: number }[]> {
  return db
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(and(eq(webhooks.accountId, accountId), eq(webhooks.enabled, true), arrayContains(webhooks.events, [event])));
}

/**
 * Queues one message per webhook of `subscribed`. `eventKey` names the occurrence: a second call
 * for the same one (run endings are signalled more than once) adds nothing, so each receiver hears of it once.
 */
async function queueMessages(db: Database, subscribed: { id: number }[], event: WebhookEvent, eventKey: string, data: unknown): Promise<void> {
  if (!subscribed.length) return;
  const payload: Envelope = { type: event, timestamp: new Date().toISOString(), data };
  const queued = await db
    .insert(webhookMessages)
    .values(subscribed.map((webhook) => ({ webhookId: webhook.id, event, eventKey, payload })))
    .onConflictDoNothing({ target: [webhookMessages.webhookId, webhookMessages.eventKey] })
    .returning({ messageId: webhookMessages.id, webhookId: webhookMessages.webhookId });
  await Promise.all(queued.map((job) => sendJob("webhook.deliver", job)));
}

/** Queues one message per enabled webhook of the account that subscribes to the event (see queueMessages). */
async function announce(db: Database, accountId: number, event: WebhookEvent, eventKey: string, data: unknown): Promise<void> {
  await queueMessages(db, await subscribersOf(db, accountId, event), event, eventKey, data);
}

const RUN_EVENTS: Record<string, WebhookEvent> = { done: "run.completed", failed: "run.failed", paused: "run.paused" };

/** A run ended (done, failed or paused): its event, with the run as GET /v1/runs/{runId} returns it. */
export async function announceRunEnd(db: Database, runId: number): Promise<void> {
  const [found] = await db.select({ status: runs.status, accountId: sites.accountId, finishedAt: runs.finishedAt }).from(runs).innerJoin(sites, eq(sites.id, runs.siteId)).where(eq(runs.id, runId));
  const event = found && RUN_EVENTS[found.status];
  if (!found || !event) return;
  // Most accounts subscribe to nothing: the run's detail (its figures, its breakdown kept) is read only for a receiver.
  const subscribed = await subscribersOf(db, found.accountId, event);
  if (!subscribed.length) return;
  const run = await getRun({ db, accountId: found.accountId }, runId);
  // A paused run may be resumed and pause again: each pause is news, told apart by how far it had got.
  const occurrence = event === "run.paused" ? `:${run.summary.total_calls}` : "";
  await queueMessages(db, subscribed, event, `${event}:${runId}${occurrence}`, run);
}

/** A sitemap's processing ended: `sitemap.processed`, or `sitemap.failed` when it ended in `error`. */
export async function announceSitemapEnd(db: Database, sitemapId: number): Promise<void> {
  const [found] = await db.select({ sitemap: sitemaps, accountId: sites.accountId }).from(sitemaps).innerJoin(sites, eq(sites.id, sitemaps.siteId)).where(eq(sitemaps.id, sitemapId));
  if (!found || !["done", "error"].includes(found.sitemap.status)) return;
  const event: WebhookEvent = found.sitemap.status === "done" ? "sitemap.processed" : "sitemap.failed";
  // Each read is an occurrence of its own: sitemaps are read again and again.
  const readAt = found.sitemap.lastProcessedAt?.getTime() ?? found.sitemap.createdAt.getTime();
  await announce(db, found.accountId, event, `${event}:${sitemapId}:${readAt}`, toSitemap(found.sitemap));
}
