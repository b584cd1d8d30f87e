import { eq, sql } from "drizzle-orm";
import { emailOutbox } from "@/drizzle/schema";
import type { Database } from "@/lib/db";
import { renderEmail, type TemplateName } from "./render";
import type { RunReportProps } from "./templates/run-report";
import { emailSender, resendConfigured, sendWithResend } from "./transport";

export type OutboxRow = typeof emailOutbox.$inferSelect;

/**
 * Renders and stores an e-mail, once per dedupe key: `pending` when Resend will send it,
 * `outbox` when no transport is configured (the dashboard shows it there).
 */
export async function queueEmail(
  db: Database,
  input: { accountId: number; dedupeKey: string; to: string; template: TemplateName; props: Record<string, unknown> },
): Promise<OutboxRow> {
  const rendered = await renderEmail(input.template, input.props);
  const [inserted] = await db
    .insert(emailOutbox)
    .values({
      accountId: input.accountId,
      dedupeKey: input.dedupeKey,
      template: input.template,
      toAddress: input.to,
      fromAddress: emailSender(),
      ...rendered,
      props: input.props,
      status: resendConfigured() ? "pending" : "outbox",
    })
    .onConflictDoNothing({ target: emailOutbox.dedupeKey })
    .returning();
  if (inserted) return inserted;
  const [existing] = await db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, input.dedupeKey));
  return existing!;
}

export function queueRunReport(db: Database, input: { accountId: number; to: string; runId: number; props: RunReportProps }) {
  return queueEmail(db, { accountId: input.accountId, dedupeKey: `run-report:${input.runId}`, to: input.to, template: "run-report", props: input.props });
}

/** Sends a pending e-mail; a failure is recorded and rethrown for a retry, and is final on the last attempt. */
export async function deliverEmail(db: Database, id: number, attempt: { final: boolean }): Promise<OutboxRow | undefined> {
  const [email] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
  if (!email || email.status !== "pending") return email; // sent already, or kept in the outbox
  try {
    const providerId = await sendWithResend({ from: email.fromAddress, to: email.toAddress, subject: email.subject, html: email.html, text: email.text });
    const [sent] = await db
      .update(emailOutbox)
      .set({ status: "sent", providerId, sentAt: new Date(), attempts: sql`${emailOutbox.attempts} + 1`, lastError: null })
      .where(eq(emailOutbox.id, id))
      .returning();
    return sent;
  } catch (error) {
    await db
      .update(emailOutbox)
      .set({ attempts: sql`${emailOutbox.attempts} + 1`, lastError: (error as Error).message, ...(attempt.final ? { status: "failed" } : {}) })
      .where(eq(emailOutbox.id, id));
    throw error;
  }
}
