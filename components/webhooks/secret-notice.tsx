import { ShownOnce } from "@/components/ui/shown-once";
import type { CreatedWebhook } from "./types";

/** The signing secret of a webhook just added: the API answers it once, and keeps no way to show it again. */
export function SecretNotice({ webhook, onDone }: { webhook: CreatedWebhook; onDone: () => void }) {
  return (
    <ShownOnce title="The signing secret of your new webhook" warning="Copy it now: it is shown only once." label="Webhook signing secret" value={webhook.secret} onDone={onDone}>
      <p className="mt-3 text-sm text-green-800">
        {webhook.format === "standard" ? (
          <>
            Each delivery is signed per Standard Webhooks: check its <code>webhook-signature</code> header against the <code>webhook-id</code>, the <code>webhook-timestamp</code> and the raw body with
            this secret (any Standard Webhooks library does it), and refuse old timestamps.
          </>
        ) : (
          <>Slack messages carry no signature; the secret signs deliveries if you switch the format to Standard Webhooks.</>
        )}
      </p>
    </ShownOnce>
  );
}
