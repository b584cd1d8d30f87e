import { Resend } from "resend";

export type OutgoingEmail = { from: string; to: string; subject: string; html: string; text: string };

export function emailSender(): string {
  return process.env.EMAIL_FROM || "Preheat <reports@preheat.localhost>";
}

/** Resend sends when RESEND_API_KEY is set; otherwise e-mails stay in the outbox the dashboard shows. */
export function resendConfigured(): boolean {
  return Boolean(process.env.RESEND_API_KEY);
}

/** Sends through Resend (RESEND_BASE_URL, when set, is the API's address: tests use a local fake). */
export async function sendWithResend(email: OutgoingEmail): Promise<string> {
  const resend = new Resend(process.env.RESEND_API_KEY, { baseUrl: process.env.RESEND_BASE_URL || undefined } as never);
  const { data, error } = await resend.emails.send(email);
  if (error || !data) throw new Error(`Resend refused the e-mail: ${error?.message ?? "no answer"}`);
  return data.id;
}
