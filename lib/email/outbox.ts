import { and, count, desc, eq } from "drizzle-orm";
import { emailOutbox } from "@/drizzle/schema";
import type { Page } from "@/lib/core/pagination";
import { iso } from "@/lib/core/primitives";
import type { Database } from "@/lib/db";
import { notFound } from "@/lib/core/errors";
import { type TemplateName, templateSecrets } from "./render";

type OutboxRow = typeof emailOutbox.$inferSelect;

function toOutboxItem(row: OutboxRow) {
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

/**
 * Whose mailbox the dashboard shows: the signed-in user's own address. E-mails carry sign-in,
 * invitation and confirmation links, so nobody reads another's, whatever their role or organization.
 */
export type Addressee = { db: Database; email: string };

function addressedTo(email: string) {
  return eq(emailOutbox.toAddress, email.trim().toLowerCase());
}

/** The e-mails to the signed-in user, newest first, from every organization: what was sent, or kept here when no transport is configured. */
export async function listOutbox(addressee: Addressee, page: Page) {
  const where = addressedTo(addressee.email);
  const [rows, [total]] = await Promise.all([
    addressee.db.select().from(emailOutbox).where(where).orderBy(desc(emailOutbox.id)).limit(page.limit).offset(page.offset),
    addressee.db.select({ n: count() }).from(emailOutbox).where(where),
  ]);
  return { data: rows.map(toOutboxItem), total: total?.n ?? 0, ...page };
}

/** One e-mail to the signed-in user with its rendered parts; anyone else's is a 404. */
export async function getOutboxEmail(addressee: Addressee, id: number) {
  const [row] = await addressee.db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.id, id), addressedTo(addressee.email)));
  if (!row) throw notFound(`E-mail ${id}`);
  return { ...toOutboxItem(row), html: row.html, text: row.text };
}

/**
 * The operator console's view of an address's e-mails: a one-time link is its addressee's alone, so
 * the console shows where it went but not its text, unless the operator is the addressee. The CLI,
 * run where the database is, stays the way to read one for an address nobody can sign in to yet.
 */
export async function emailsForOperator(db: Database, operator: { email: string }, address: string, limit: number) {
  const rows = await latestEmailsTo(db, address, limit);
  return rows.map((row) => ({
    ...toOutboxItem(row),
    text:
      templateSecrets[row.template as TemplateName] && row.toAddress !== operator.email
        ? `This e-mail carries a one-time link for ${row.toAddress} only, so the console does not show it. Where the database is, \`npm run cli -- emails --to ${row.toAddress}\` prints it.`
        : row.text,
  }));
}

/** The operator's view (CLI): the newest e-mails to one address, whatever account they belong to. */
export async function latestEmailsTo(db: Database, address: string, limit: number) {
  return db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, address.trim().toLowerCase())).orderBy(desc(emailOutbox.id)).limit(limit);
}
