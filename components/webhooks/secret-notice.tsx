import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import type { CreatedWebhook } from "./types";

/** The signing secret of a webhook just added: the API answers it once, and keeps no way to show it again. */
export function SecretNotice({ webhook, onDone }: { webhook: CreatedWebhook; onDone: () => void }) {
  return (
    <div role="status" className="rounded-lg border border-green-300 bg-green-50 p-4">
      <p className="text-sm font-semibold text-green-900">The signing secret of your new webhook</p>
      <p className="mt-1 text-sm text-green-800">Copy it now: it is shown only once.</p>
      <div className="mt-3 flex flex-col gap-2 sm:flex-row">
        <input
          readOnly
          aria-label="Webhook signing secret"
          value={webhook.secret}
          onFocus={(e) => e.target.select()}
          className="min-w-0 flex-1 rounded-md border border-green-300 bg-white px-3 py-2 font-mono text-sm"
        />
        <CopyButton value={webhook.secret} />
        <Button variant="ghost" onClick={onDone}>
          Done
        </Button>
      </div>
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
    </div>
  );
}
