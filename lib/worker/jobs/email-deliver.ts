import { deliverEmail } from "@/lib/email/send";
import type { JobHandler } from "../job-handler";

/** Sends one queued e-mail; its failures are retried and never touch what it reports on. */
export const emailDeliver: JobHandler<"email.deliver"> = async ({ emailId }, { db, final }) => {
  const email = await deliverEmail(db, emailId, { final });
  return { status: email?.status };
};
