import { and, eq, isNull, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { webhookDeliveries, webhookMessages, webhooks } from "@/drizzle/schema";
import { organizationOwner } from "@/lib/accounts/organizations";
import { setting } from "@/lib/config";
import type { Database } from "@/lib/db";
import { queueEmail } from "@/lib/email/send";
import { FetchError, guardedPost } from "@/lib/fetch";
import { sendJob } from "@/lib/jobs";
import { publicBaseUrl } from "@/lib/config/base-url";
import { messageIdOf } from "./message-id";
import type { WebhookRow } from "@/lib/webhooks/types";
import { slackMessage } from "./slack";
import type { Envelope } from "./types";
import { TEST_EVENT } from "./schemas";

/** A receiver gets this long to answer; a slow one is retried like a failing one. */
const DELIVERY_TIMEOUT_MS = 10_000;

/** The body of every standard delivery: the event, when it happened, and the object it is about. */
export type AttemptOutcome = { statusCode: number | null; durationMs: number; error: string | null; permanent: boolean };

/** Refusals that asking again will not change: the address guard, a URL that cannot be fetched. */
const PERMANENT: FetchError["kind"][] = ["blocked_address", "invalid_url"];

/** One POST of an envelope to the webhook, signed per Standard Webhooks (or as a Slack message). */
async function post(webhook: WebhookRow, messageId: string, envelope: Envelope): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const body = JSON.stringify(webhook.format === "slack" ? slackMessage(envelope) : envelope);
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (webhook.format === "standard") {
    const now = new Date();
    headers["webhook-id"] = messageId;
    headers["webhook-timestamp"] = String(Math.floor(now.getTime() / 1000));
    headers["webhook-signature"] = new Webhook(webhook.secret).sign(messageId, now, body);
  }
  try {
    const response = await guardedPost(webhook.url, body, { headers, timeoutMs: DELIVERY_TIMEOUT_MS });
    const ok = response.status >= 200 && response.status < 300;
    return { statusCode: response.status, durationMs: elapsed(), error: ok ? null : `the receiver answered HTTP ${response.status}`, permanent: false };
  } catch (error) {
    const permanent = error instanceof FetchError && PERMANENT.includes(error.kind);
    return { statusCode: null, durationMs: elapsed(), error: error instanceof Error ? error.message : String(error), permanent };
  }
}

/**
 * Counts the attempt against the webhook: a success resets its run of failures, a failure adds to
 * it, and the failure that reaches PREHEAT_WEBHOOK_DISABLE_AFTER disables it and tells the owner.
 */
async function countAttempt(db: Database, webhook: WebhookRow, outcome: AttemptOutcome): Promise<void> {
  if (!outcome.error) {
    await db.update(webhooks).set({ consecutiveFailures: 0 }).where(eq(webhooks.id, webhook.id));
    return;
  }
  const limit = setting("PREHEAT_WEBHOOK_DISABLE_AFTER");
  const [counted] = await db
    .update(webhooks)
    .set({ consecutiveFailures: sql`${webhooks.consecutiveFailures} + 1` })
    .where(eq(webhooks.id, webhook.id))
    .returning({ failures: webhooks.consecutiveFailures });
  if (!counted || counted.failures < limit) return;
  const reason = `Disabled after ${counted.failures} consecutive failed deliveries; the last: ${outcome.error}`;
  const [disabled] = await db
    .update(webhooks)
    .set({ enabled: false, disabledReason: reason, updatedAt: new Date() })
    .where(and(eq(webhooks.id, webhook.id), eq(webhooks.enabled, true)))
    .returning();
  if (disabled) await tellOwner(db, disabled, counted.failures, outcome.error);
}

async function tellOwner(db: Database, webhook: WebhookRow, failures: number, lastError: string): Promise<void> {
  const owner = await organizationOwner(db, webhook.accountId);
  if (!owner) return;
  const email = await queueEmail(db, {
    accountId: webhook.accountId,
    // Once per time it is disabled: enabling it again and failing again is news again.
    dedupeKey: `webhook-disabled:${webhook.id}:${webhook.updatedAt.getTime()}`,
    to: owner.email,
    template: "webhook-disabled",
    props: { webhookUrl: webhook.url, failures, lastError, dashboardUrl: `${publicBaseUrl()}/webhooks/${webhook.id}` },
  });
  if (email.status === "pending") await sendJob("email.deliver", { emailId: email.id });
}

async function recordAttempt(db: Database, webhook: WebhookRow, message: { id: number | null; event: string; attempt: number }, outcome: AttemptOutcome) {
  const [delivery] = await db
    .insert(webhookDeliveries)
    .values({ webhookId: webhook.id, messageId: message.id, event: message.event, attempt: message.attempt, statusCode: outcome.statusCode, durationMs: outcome.durationMs, error: outcome.error })
    .returning();
  await countAttempt(db, webhook, outcome);
  return delivery!;
}

/**
 * Retries of one event while the webhook has never had a 2xx answer, so that an endpoint that has
 * never taken a delivery (a mistyped URL, somebody else's server) hears of each event at most 4
 * times, not for a day. Once it has answered 2xx, to an event or a test, the whole back-off
 * schedule applies. Read from the recorded deliveries, which are kept as long as the webhook.
 */
const RETRIES_UNTIL_ANSWERED = 3;

/** Whether the webhook has ever had a 2xx answer (the attempts without an error). */
async function hasAnswered(db: Database, webhook: WebhookRow): Promise<boolean> {
  const [found] = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.webhookId, webhook.id), isNull(webhookDeliveries.error)))
    .limit(1);
  return found !== undefined;
}

/** What one delivery job did: `retry` asks the job engine to try again later. */
export type DeliveryResult = "delivered" | "failed" | "retry" | "skipped";

/**
 * Attempts a pending message once. Idempotent: a message already delivered or failed is left as
 * it is, so a repeated job never sends twice what was answered. A failure is retried by the job
 * engine (with back-off) until the `final` attempt, unless retrying cannot help or the receiver has
 * not answered 2xx yet and has had its RETRIES_UNTIL_ANSWERED.
 */
export async function deliverMessage(db: Database, messageId: number, options: { final: boolean }): Promise<DeliveryResult> {
  const [found] = await db
    .select({ message: webhookMessages, webhook: webhooks })
    .from(webhookMessages)
    .innerJoin(webhooks, eq(webhooks.id, webhookMessages.webhookId))
    .where(eq(webhookMessages.id, messageId));
  if (found?.message.status !== "pending") return "skipped";
  const { message, webhook } = found;
  if (!webhook.enabled) {
    await db.update(webhookMessages).set({ status: "failed" }).where(eq(webhookMessages.id, message.id));
    return "skipped";
  }
  const attempt = message.attempts + 1;
  const outcome = await post(webhook, messageIdOf(message), message.payload as Envelope);
  await recordAttempt(db, webhook, { id: message.id, event: message.event, attempt }, outcome);
  const gaveUp = outcome.error !== null && (options.final || outcome.permanent || (attempt > RETRIES_UNTIL_ANSWERED && !(await hasAnswered(db, webhook))));
  const status = !outcome.error ? "delivered" : gaveUp ? "failed" : "pending";
  await db
    .update(webhookMessages)
    .set({ attempts: attempt, status })
    .where(and(eq(webhookMessages.id, message.id), eq(webhookMessages.status, "pending")));
  return status === "pending" ? "retry" : status;
}

/** POST /v1/webhooks/{id}/test: one signed `webhook.test` delivery now, whatever the webhook's events; its outcome is recorded like any other. */
export async function deliverTest(db: Database, webhook: WebhookRow) {
  const envelope: Envelope = {
    type: TEST_EVENT,
    timestamp: new Date().toISOString(),
    data: { webhook_id: webhook.id, message: "A test delivery from Preheat: the signature and the receiver work." },
  };
  const testId = `msg_test_${Date.now().toString(36)}${webhook.id}`;
  const outcome = await post(webhook, testId, envelope);
  return recordAttempt(db, webhook, { id: null, event: envelope.type, attempt: 1 }, outcome);
}
