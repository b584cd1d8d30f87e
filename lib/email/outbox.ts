import { and, count, desc, eq } from "drizzle-orm";
import { emailOutbox } from "@/drizzle/schema";
import type { Page } from "@/lib/core/pagination";
import { iso } from "@/lib/core/primitives";
import type { AccountContext } from "@/lib/context";
import type { Database } from "@/lib/db";
import { notFound } from "@/lib/core/errors";

type OutboxRow = typeof emailOutbox.$inferSelect;

export function toOutboxItem(row: OutboxRow) {
  return {
    id: row.id,
    template: row.template,
    to: row.toAddress,
    from: row.fromAddress,
    subject: row.subject,
    status: row.status,
    attempts: row.attempts,
    last_error: row.lastError,
    sent_at: iso(row.sentAt),
    created_at: row.createdAt.toISOString(),
  };
}

export type OutboxItem = ReturnType<typeof toOutboxItem>;

/** The account's e-mails, newest first: what was sent, or kept here when no transport is configured. */
export async function listOutbox(ctx: AccountContext, page: Page) {
  const where = eq(emailOutbox.accountId, ctx.accountId);
  const [rows, [total]] = await Promise.all([
    ctx.db.select().from(emailOutbox).where(where).orderBy(desc(emailOutbox.id)).limit(page.limit).offset(page.offset),
    ctx.db.select({ n: count() }).from(emailOutbox).where(where),
  ]);
  return { data: rows.map(toOutboxItem), total: total?.n ?? 0, ...page };
}

/** One e-mail with its rendered parts. */
export async function getOutboxEmail(ctx: AccountContext, id: number) {
  const [row] = await ctx.db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.id, id), eq(emailOutbox.accountId, ctx.accountId)));
  if (!row) throw notFound(`E-mail ${id}`);
  return { ...toOutboxItem(row), html: row.html, text: row.text };
}

/** The operator's view (CLI): the newest e-mails to one address, whatever account they belong to. */
export async function latestEmailsTo(db: Database, address: string, limit: number) {
  return db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, address.trim().toLowerCase())).orderBy(desc(emailOutbox.id)).limit(limit);
}
