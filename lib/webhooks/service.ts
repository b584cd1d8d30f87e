import { randomBytes } from "node:crypto";
import { and, count, desc, eq } from "drizzle-orm";
import { accounts, webhookDeliveries, webhookMessages, webhooks } from "@/drizzle/schema";
import type { Page } from "@/lib/core/pagination";
import { type Budget, takePoint } from "@/lib/auth/rate-limit";
import { iso } from "@/lib/core/primitives";
import { setting } from "@/lib/config";
import type { AccountContext } from "@/lib/context";
import type { Database } from "@/lib/db";
import { ConflictError, ForbiddenError, notFound, TooManyRequestsError } from "@/lib/core/errors";
import { deliverTest } from "./deliver";
import { messageIdOf } from "./message-id";
import { receiverOf } from "./receiver";
import type { CreateWebhookInput, UpdateWebhookInput, WebhookPayload } from "./schemas";
import type { WebhookRow } from "./types";

type DeliveryRow = typeof webhookDeliveries.$inferSelect & { messageCreatedAt: Date | null };

export function toWebhook(row: WebhookRow): WebhookPayload {
  return {
    id: row.id,
    url: row.url,
    events: row.events as WebhookPayload["events"],
    description: row.description,
    format: row.format,
    enabled: row.enabled,
    disabled_reason: row.disabledReason,
    consecutive_failures: row.consecutiveFailures,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The Standard Webhooks secret format: `whsec_` and 24 random bytes in base64. */
function newSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

/**
 * The account's webhooks, with the account's row locked until the transaction ends: creations and
 * URL changes of one account take turns, so two requests at once can pass neither the limit nor the
 * one-webhook-per-URL rule (a unique index on the URL could not compare URLs as receiverOf does).
 */
async function lockAccountWebhooks(tx: Database, accountId: number): Promise<{ id: number; url: string }[]> {
  await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for("update");
  return tx.select({ id: webhooks.id, url: webhooks.url }).from(webhooks).where(eq(webhooks.accountId, accountId));
}

/** One webhook per receiver: several to one URL would send it every event several times over. */
function assertNewReceiver(existing: { id: number; url: string }[], url: string, exceptId?: number): void {
  const receiver = receiverOf(url);
  if (existing.some((webhook) => webhook.id !== exceptId && receiverOf(webhook.url) === receiver)) {
    throw new ConflictError(`This account already has a webhook to ${url}: change that one instead.`, undefined, "duplicate_webhook");
  }
}

/** Creates a webhook; its secret is in this answer only (the API shows it once). */
export async function createWebhook(ctx: AccountContext, input: CreateWebhookInput): Promise<WebhookPayload & { secret: string }> {
  const row = await ctx.db.transaction(async (tx) => {
    const existing = await lockAccountWebhooks(tx, ctx.accountId);
    assertNewReceiver(existing, input.url);
    const limit = setting("PREHEAT_WEBHOOKS_PER_ACCOUNT");
    if (existing.length >= limit) throw new ForbiddenError(`An account has at most ${limit} webhooks: delete one first.`, undefined, "webhook_limit");
    const [created] = await tx
      .insert(webhooks)
      .values({ accountId: ctx.accountId, url: input.url, events: input.events, description: input.description ?? null, format: input.format, secret: newSecret() })
      .returning();
    return created!;
  });
  return { ...toWebhook(row), secret: row.secret };
}

export async function listWebhooks(ctx: AccountContext, page: Page) {
  const where = eq(webhooks.accountId, ctx.accountId);
  const [rows, [total]] = await Promise.all([
    ctx.db.select().from(webhooks).where(where).orderBy(desc(webhooks.id)).limit(page.limit).offset(page.offset),
    ctx.db.select({ n: count() }).from(webhooks).where(where),
  ]);
  return { data: rows.map(toWebhook), total: total?.n ?? 0, ...page };
}

export async function getWebhookRow(ctx: AccountContext, webhookId: number): Promise<WebhookRow> {
  const [row] = await ctx.db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.id, webhookId), eq(webhooks.accountId, ctx.accountId)));
  if (!row) throw notFound("Webhook");
  return row;
}

/** Only the supplied fields; enabling again starts the failure count afresh. A new URL must not be another webhook's. */
export async function updateWebhook(ctx: AccountContext, webhookId: number, input: UpdateWebhookInput): Promise<WebhookPayload> {
  const reenabled = input.enabled === true ? { consecutiveFailures: 0, disabledReason: null } : {};
  const disabled = input.enabled === false ? { disabledReason: null } : {};
  const row = await ctx.db.transaction(async (tx) => {
    if (input.url !== undefined) {
      const existing = await lockAccountWebhooks(tx, ctx.accountId);
      // Unknown before conflicting: another account's webhook is not found, whatever its URL.
      if (!existing.some((webhook) => webhook.id === webhookId)) throw notFound("Webhook");
      assertNewReceiver(existing, input.url, webhookId);
    }
    const [updated] = await tx
      .update(webhooks)
      .set({ ...input, ...reenabled, ...disabled, updatedAt: new Date() })
      .where(and(eq(webhooks.id, webhookId), eq(webhooks.accountId, ctx.accountId)))
      .returning();
    return updated;
  });
  if (!row) throw notFound("Webhook");
  return toWebhook(row);
}

export async function deleteWebhook(ctx: AccountContext, webhookId: number): Promise<void> {
  const deleted = await ctx.db
    .delete(webhooks)
    .where(and(eq(webhooks.id, webhookId), eq(webhooks.accountId, ctx.accountId)))
    .returning({ id: webhooks.id });
  if (!deleted.length) throw notFound("Webhook");
}

function toDelivery(row: DeliveryRow) {
  return {
    id: row.id,
    message_id: row.messageId && row.messageCreatedAt ? messageIdOf({ id: row.messageId, createdAt: row.messageCreatedAt }) : null,
    event: row.event,
    attempt: row.attempt,
    status_code: row.statusCode,
    duration_ms: row.durationMs,
    error: row.error,
    created_at: iso(row.createdAt)!,
  };
}

/** The webhook's delivery attempts, newest first. */
export async function listDeliveries(ctx: AccountContext, webhookId: number, page: Page) {
  await getWebhookRow(ctx, webhookId);
  const where = eq(webhookDeliveries.webhookId, webhookId);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select({ delivery: webhookDeliveries, messageCreatedAt: webhookMessages.createdAt })
      .from(webhookDeliveries)
      .leftJoin(webhookMessages, eq(webhookMessages.id, webhookDeliveries.messageId))
      .where(where)
      .orderBy(desc(webhookDeliveries.id))
      .limit(page.limit)
      .offset(page.offset),
    ctx.db.select({ n: count() }).from(webhookDeliveries).where(where),
  ]);
  return { data: rows.map((r) => toDelivery({ ...r.delivery, messageCreatedAt: r.messageCreatedAt })), total: total?.n ?? 0, ...page };
}

/**
 * A test event goes out at once, whoever answers, so each webhook gets one every 10 s: enough to
 * try a receiver again after fixing it, too few to flood anyone with. Counted in the shared limit
 * store, so the limit holds across servers.
 */
const TEST_EVENT_BUDGET: Budget = { name: "webhook-test", points: 1, seconds: 10 };

/** One signed test delivery now; the answer is that delivery, whatever the receiver said. */
export async function testWebhook(ctx: AccountContext, webhookId: number) {
  const webhook = await getWebhookRow(ctx, webhookId);
  const budget = await takePoint(ctx.db, TEST_EVENT_BUDGET, `webhook:${webhook.id}`);
  if (!budget.allowed) {
    throw new TooManyRequestsError(`A webhook takes one test event every ${TEST_EVENT_BUDGET.seconds} s: try again in ${budget.resetSeconds} s.`, budget.resetSeconds);
  }
  return toDelivery({ ...(await deliverTest(ctx.db, webhook)), messageCreatedAt: null });
}
