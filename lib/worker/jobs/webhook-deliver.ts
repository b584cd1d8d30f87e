import { deliverMessage } from "@/lib/webhooks/deliver";
import { type JobHandler, RetryLaterError } from "../job-handler";

/** Delivers one webhook event; a failed attempt is retried by the job engine, with back-off, for about a day (3 times only while the receiver has not answered 2xx). */
export const webhookDeliver: JobHandler<"webhook.deliver"> = async ({ messageId }, { db, final }) => {
  const result = await deliverMessage(db, messageId, { final });
  if (result === "retry") throw new RetryLaterError(`webhook message ${messageId}: the attempt failed, retried later`);
  return { result };
};
