import { and, eq, sql } from "drizzle-orm";
import { emailOutbox } from "@/drizzle/schema";
import type { Database } from "@/lib/db";
import { propsWithoutSecret, type RenderedEmail, renderEmail, type TemplateName, type TemplateProps, templateSecrets } from "./render";
import type { RunReportProps } from "./templates/run-report";
import { currentTransport, type EmailTransport, emailSender } from "./transport";

export type OutboxRow = typeof emailOutbox.$inferSelect;

async function findByDedupeKey(db: Database, dedupeKey: string): Promise<OutboxRow | undefined> {
  const [row] = await db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, dedupeKey));
  return row;
}

/**
 * Renders and stores an e-mail, once per dedupe key: `pending` when the transport will send it,
 * `outbox` when none is configured (the dashboard shows it there). A second call with the same key
 * returns the first row unchanged.
 */
export async function queueEmail<T extends TemplateName>(db: Database, input: EmailInput<T>, transport: EmailTransport = currentTransport()): Promise<OutboxRow> {
  // A queued e-mail is sent later from its stored copy, and a stored copy must not hold a secret.
  if (templateSecrets[input.template] && transport.queuedStatus === "pending") throw new Error(`The ${input.template} e-mail carries a secret: send it with sendNow.`);
  return storeEmail(db, input, input.props, transport.queuedStatus);
}

type EmailInput<T extends TemplateName> = { accountId: number | null; dedupeKey: string; to: string; template: T; props: TemplateProps<T> };

/** The row of an e-mail, rendered from `kept` (the props its stored copy may hold), once per dedupe key. */
async function storeEmail<T extends TemplateName>(db: Database, input: EmailInput<T>, kept: TemplateProps<T>, status: OutboxRow["status"]): Promise<OutboxRow> {
  // Run endings are signalled more than once: skip rendering when the e-mail is already there.
  const existing = await findByDedupeKey(db, input.dedupeKey);
  if (existing) return existing;
  const rendered = await renderEmail(input.template, kept);
  const [inserted] = await db
    .insert(emailOutbox)
    .values({
      accountId: input.accountId,
      dedupeKey: input.dedupeKey,
      template: input.template,
      toAddress: input.to,
      fromAddress: emailSender(),
      ...rendered,
      props: kept,
      status,
    })
    // Two signals at once: the unique dedupe key lets one insert win, the other reads its row.
    .onConflictDoNothing({ target: emailOutbox.dedupeKey })
    .returning();
  return inserted ?? (await findByDedupeKey(db, input.dedupeKey))!;
}

/** The report of one run: at most one per run, whoever asks and however often. */
export function queueRunReport(db: Database, input: { accountId: number; to: string; runId: number; props: RunReportProps }, transport?: EmailTransport) {
  return queueEmail(db, { accountId: input.accountId, dedupeKey: `run-report:${input.runId}`, to: input.to, template: "run-report", props: input.props }, transport);
}

/**
 * Queues an e-mail the reader is waiting for (a sign-in or confirmation link) and, with a transport,
 * sends it at once; the outbox keeps it either way.
 */
export async function sendNow<T extends TemplateName>(db: Database, input: EmailInput<T>): Promise<OutboxRow> {
  const transport = currentTransport();
  if (!templateSecrets[input.template] || transport.queuedStatus === "outbox") {
    // Without a transport the outbox keeps the link: only its addressee reads it there (lib/email/outbox.ts).
    const queued = await storeEmail(db, input, input.props, transport.queuedStatus);
    if (queued.status !== "pending") return queued;
    return (await deliverEmail(db, queued.id, { final: true, transport })) ?? queued;
  }
  // A secret is sent from memory, once, and the stored copy has its link spent: nobody reading the
  // database or the outbox can use it. A failed send is not retried from the copy; the reader asks again.
  const queued = await storeEmail(db, input, propsWithoutSecret(input.template, input.props), "pending");
  if (queued.status !== "pending") return queued;
  const content = await renderEmail(input.template, input.props);
  return (await deliverEmail(db, queued.id, { final: true, transport, content })) ?? queued;
}

/** Updates only a row still `pending`: a delivery that raced this one and sent it wins. */
function whilePending(id: number) {
  return and(eq(emailOutbox.id, id), eq(emailOutbox.status, "pending"));
}

/**
 * Sends a `pending` e-mail. A failure is recorded (attempts, last_error) and rethrown so that the
 * job runner retries; on the `final` attempt the e-mail becomes `failed`. Any other status (sent,
 * failed, outbox) is returned as is, so a repeated job never sends twice.
 */
export async function deliverEmail(
  db: Database,
  id: number,
  // `content`: what to send instead of the stored copy, for an e-mail whose copy keeps no secret.
  options: { final: boolean; transport?: EmailTransport; content?: RenderedEmail },
): Promise<OutboxRow | undefined> {
  const transport = options.transport ?? currentTransport();
  const [email] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
  if (email?.status !== "pending") return email;
  if (transport.queuedStatus === "outbox") {
    // RESEND_API_KEY was removed after the e-mail was queued: keep it for the dashboard instead of
    // spending its attempts on a transport that cannot send.
    const [kept] = await db.update(emailOutbox).set({ status: "outbox" }).where(whilePending(id)).returning();
    return kept ?? email;
  }
  let providerId: string;
  try {
    providerId = await transport.send({
      from: email.fromAddress,
      to: email.toAddress,
      subject: email.subject,
      html: options.content?.html ?? email.html,
      text: options.content?.text ?? email.text,
      // Stable across retries, so a send whose answer was lost is not sent again. created_at is in
      // it because dedupe keys repeat across databases (run ids restart), and Resend remembers keys for 24 h.
      idempotencyKey: `${email.dedupeKey}/${email.createdAt.getTime()}`,
    });
  } catch (error) {
    await db
      .update(emailOutbox)
      .set({ attempts: sql`${emailOutbox.attempts} + 1`, lastError: error instanceof Error ? error.message : String(error), ...(options.final ? { status: "failed" } : {}) })
      .where(whilePending(id));
    throw error;
  }
  // Outside the try: if recording fails, the retry sends again with the same idempotency key, and
  // Resend answers with the first e-mail's id instead of sending a second one.
  const [sent] = await db
    .update(emailOutbox)
    .set({ status: "sent", providerId, sentAt: new Date(), attempts: sql`${emailOutbox.attempts} + 1`, lastError: null })
    .where(whilePending(id))
    .returning();
  return sent ?? (await db.select().from(emailOutbox).where(eq(emailOutbox.id, id)))[0];
}
