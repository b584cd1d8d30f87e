import { Resend } from "resend";
import { setting } from "@/lib/config";

type OutgoingEmail = {
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  /** The same for every attempt at one e-mail, so that the provider sends it at most once. */
  idempotencyKey: string;
};

/**
 * Where e-mails go. `queuedStatus` is what a queued e-mail starts as: `pending` when this transport
 * delivers it, `outbox` when it is only kept for the dashboard.
 */
export type EmailTransport = {
  name: "resend" | "outbox";
  queuedStatus: "pending" | "outbox";
  /** Sends the e-mail and returns the provider's id; throws when it was not accepted. */
  send(email: OutgoingEmail): Promise<string>;
};

export function emailSender(): string {
  return setting("EMAIL_FROM");
}

const resendTransport: EmailTransport = {
  name: "resend",
  queuedStatus: "pending",
  async send({ idempotencyKey, ...email }) {
    // resend@6 would also read RESEND_BASE_URL on its own; passing it says so here, and keeps
    // working if a later SDK stops reading the environment.
    const resend = new Resend(setting("RESEND_API_KEY"), { baseUrl: setting("RESEND_BASE_URL") });
    // The SDK never throws for an API error: it answers { error } (network failures included).
    const { data, error } = await resend.emails.send(email, { idempotencyKey });
    if (error || !data?.id) {
      // An API error is its JSON body as is: statusCode may be missing whatever the types say.
      const code = error?.statusCode ? ` (${error.statusCode} ${error.name})` : "";
      throw new Error(`Resend refused the e-mail${code}: ${error?.message ?? "no id in its answer"}`);
    }
    return data.id;
  },
};

/** Nothing leaves: e-mails stay in the outbox table, where the dashboard shows them. */
const outboxTransport: EmailTransport = {
  name: "outbox",
  queuedStatus: "outbox",
  async send() {
    throw new Error("No e-mail transport is configured (RESEND_API_KEY is not set).");
  },
};

/** Read on every call, not at import: tests (and a restarted worker) change the environment. */
export function currentTransport(): EmailTransport {
  return setting("RESEND_API_KEY") ? resendTransport : outboxTransport;
}
