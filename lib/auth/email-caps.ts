import { takePoint } from "@/lib/auth/rate-limit";
import type { Database } from "@/lib/db";
import type { TemplateName } from "@/lib/email/render";
import { logger } from "@/lib/observability/log";
import { emailBudgets } from "./attempts";

/**
 * Whether an e-mail a signed-out visitor asked for may go out (emailBudgets: 5 an hour to one
 * address, 20 an hour for one client). A refusal is silent: the caller sends nothing and answers as
 * if it had sent, so the cap tells nobody whether an address has an account or was asked for before.
 * The client is counted first, and an address only for clients within their cap: one client spamming
 * many addresses does not also spend each victim's own budget once it is stopped.
 */
export async function mayEmailVisitor(db: Database, input: { to: string; client: string; template: TemplateName }): Promise<boolean> {
  const fromClient = await takePoint(db, emailBudgets.fromClient, input.client);
  const cap = !fromClient.allowed ? "client" : !(await takePoint(db, emailBudgets.toAddress, input.to.trim().toLowerCase())).allowed ? "address" : undefined;
  if (!cap) return true;
  // Neither address nor client in the log line (the logs carry no personal data): which cap and which e-mail.
  logger().warn({ template: input.template, cap }, "e-mail not sent: over its cap");
  return false;
}
