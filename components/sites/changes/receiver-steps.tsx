import Link from "next/link";
import { receiverGuidePath } from "@/lib/core/guide-paths";

type Kind = "shopify" | "contentful" | "sanity" | "strapi" | "netlify" | "vercel";

/** The systems whose notifications name no page: they warm what the site's sitemaps say changed, through no template. */
export const DEPLOY_KINDS: readonly Kind[] = ["netlify", "vercel"];

export const KIND_NAMES: Record<Kind, string> = { shopify: "Shopify", contentful: "Contentful", sanity: "Sanity", strapi: "Strapi", netlify: "Netlify", vercel: "Vercel" };

/** Where the system keeps the secret: made by Preheat (paste it there), or made by the system (paste it here). */
export const OWN_SECRET: Record<Kind, string | null> = {
  shopify: "Shopify signs with its own key, shown under its webhook list: paste it here.",
  contentful: "With request verification, Contentful shows a 64-character signing secret: paste it here. Leave empty to use a secret header instead.",
  sanity: null,
  strapi: null,
  netlify: null,
  vercel: "Vercel shows the webhook's secret once, when it is created: paste it here.",
};

/** Each system's set-up, in short (docs/guide/site-owners/change-receivers/{kind}.md has every step and the signature). */
const STEPS: Record<Kind, string[]> = {
  shopify: [
    "Shopify admin → Settings → Notifications → Webhooks → Create webhook.",
    "Events: Product, Collection and Page creation and update. Format JSON, the latest API version.",
    "URL: this receiver's URL. Its secret is Shopify's signing key, shown under the webhook list: set it here when creating the receiver.",
  ],
  contentful: [
    "The space → Settings → Webhooks → Add Webhook, POST to this receiver's URL.",
    "Triggers: select Entry → Publish and Unpublish. Keep the default payload.",
    "Secret: enable request verification and give its signing secret to the receiver, or add a secret header X-Preheat-Secret with the receiver's secret.",
  ],
  sanity: [
    "sanity.io/manage → the project → API → Webhooks → Create webhook, URL: this receiver's URL.",
    'Trigger on Create and Update, HTTP method POST, a filter such as _type in ["post", "page"]; leave the projection empty.',
    "Paste the receiver's secret in the webhook's Secret field.",
  ],
  strapi: [
    "Admin panel → Settings → Global settings → Webhooks → Create new webhook, URL: this receiver's URL.",
    "Header: Authorization, value Bearer followed by the receiver's secret.",
    "Events: Entry → Publish, Update, Unpublish.",
  ],
  netlify: [
    "The project → Project configuration → Notifications → Deploy notifications → Add notification → HTTP POST request.",
    "Event: Deploy succeeded. URL to notify: this receiver's URL. JWS secret token: the receiver's secret.",
    "It warms what the site's sitemaps say changed, through the change boost: choose one above.",
  ],
  vercel: [
    "The team's Settings → Webhooks → Create Webhook, event Deployment Succeeded, the site's project, endpoint: this receiver's URL.",
    "Vercel shows the webhook's secret once: set it here when creating the receiver.",
    "It warms what the site's sitemaps say changed (production deployments), through the change boost: choose one above.",
  ],
};

export function ReceiverSteps({ kind }: { kind: Kind }) {
  return (
    <details className="text-sm text-slate-700">
      <summary className="cursor-pointer font-medium text-slate-800">Set up {KIND_NAMES[kind]}</summary>
      <ol className="mt-2 list-decimal space-y-1 pl-5">
        {STEPS[kind].map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <p className="mt-2">
        <Link href={receiverGuidePath(kind)} className="text-sky-700 underline">
          Every step, and the signature {KIND_NAMES[kind]} uses
        </Link>
      </p>
    </details>
  );
}
