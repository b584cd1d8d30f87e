import { z } from "zod";
import { timestamp } from "@/lib/core/primitives";

export const createSiteBody = z
  .object({
    domain: z.string().meta({ description: "Host name with an optional port; a leading https:// or http:// and a trailing slash are stripped.", example: "www.example.com" }),
  })
  .meta({ id: "CreateSiteRequest" });

const validationMethodSchema = z.enum(["html_file", "meta_tag", "dns_txt"]).meta({
  id: "ValidationMethod",
  description:
    '`html_file`: /{validation_token}.html answered 200; `meta_tag`: `<meta name="service-token">` in the homepage head; `dns_txt`: a TXT record `_preheat-challenge.{domain}` holding `preheat-site-verification={validation_token}`.',
});

export type ValidationMethod = z.infer<typeof validationMethodSchema>;

const ownershipRecheckSchema = z
  .object({
    last_checked_at: timestamp.nullable().meta({ description: "When the proof was last looked for, by a recheck or by validating; null before." }),
    next_check_at: timestamp.nullable().meta({ description: "When the next recheck is due; null while the site is not validated." }),
    proof_missing_since: timestamp.nullable().meta({ description: "When a recheck first missed the proof; null while it holds. The owner is e-mailed then." }),
    unvalidates_at: timestamp
      .nullable()
      .meta({ description: "When the site stops being validated unless the proof is back (7 days after it went missing); null while the proof holds or once the site is unvalidated." }),
    problem: z.string().nullable().meta({ description: "What the last recheck that missed the proof found, worded as a failed validation is." }),
  })
  .meta({
    id: "OwnershipRecheck",
    description:
      "A validated site's proof is looked for again every 30 days (the operator may set another period). When it is missing, the owner is e-mailed, the site is checked daily and stays validated for 7 days; still missing then, the site is unvalidated and capped like any unvalidated site. Validating again (POST …/validate) ends the notice as soon as the proof is back.",
  });

const blockedVerdictSchema = z
  .object({
    blocked_by: z.string().meta({ description: "The bot protection that blocked the calls, as a run's `summary.blocked_by` names it (`cloudflare`, `akamai`, `imperva`, …, `other`)." }),
    at: timestamp.meta({ description: "When the run that found it ended." }),
    run_id: z.number().int().meta({ description: "That run: GET /v1/runs/{run_id}." }),
  })
  .meta({ id: "BlockedVerdict", description: "The last time bot protection blocked a user-agent class's calls on this site." });

export const siteSchema = z
  .object({
    id: z.number().int(),
    domain: z.string(),
    validated: z.boolean(),
    validation_token: z.string().meta({
      description:
        'Publish it as /{validation_token}.html, as `<meta name="service-token" content="…">`, or in a DNS TXT record `_preheat-challenge.{domain}` holding `preheat-site-verification={validation_token}`.',
    }),
    validation_method: validationMethodSchema.nullable().meta({ description: "Which ownership proof succeeded; null until validated." }),
    validated_at: timestamp.nullable(),
    ownership_recheck: ownershipRecheckSchema,
    verification_secret: z.string().meta({
      description:
        "Sent on every warming call in the `Preheat-Verification` header, so that a firewall rule can let exactly Preheat through (see /docs/site-owners/bot-protection). Not an account credential: it is meant to be pasted into a firewall rule, so every read of the site shows it. Replace it with POST /v1/sites/{siteId}/verification/rotate.",
      example: "hT3xQ0bW9sVv2yG8cJkM1nPq4rS6tU7wX5zA0bC2dE4",
    }),
    max_concurrency: z
      .number()
      .int()
      .meta({ description: "Warming calls sent to the site at once by the whole service (every worker, run and region). The service default (PREHEAT_SITE_CONCURRENCY, 4) unless set with PATCH." }),
    max_requests_per_second: z.number().nullable().meta({ description: "Warming calls started per second at most; null: no rate cap." }),
    crawl_delay_seconds: z.number().nullable().meta({
      description:
        "The Crawl-delay the site's robots.txt asks of Preheat (`User-agent: Preheat`, else `*`), read once a day when a run starts, capped at 60 s; null when it asks none. Without `max_requests_per_second`, calls are paced one per delay; a validated site's owner overrides it by setting `max_requests_per_second` (on a site not validated, the slower of the two holds).",
    }),
    change_boost_id: z.number().int().nullable().meta({
      description: "The boost whose variants and regions warm the site's changes (POST /v1/sites/{siteId}/changes, the change receivers); null: a warm's defaults. Set with PATCH.",
    }),
    blocked_verdicts: z.record(z.string(), blockedVerdictSchema).meta({
      description:
        "Per user-agent class (`mobile`, `desktop`, `bot`, `ai_crawler`), the last run in which bot protection blocked at least half of that class's calls; a later run the class gets through takes it back. Empty when none. Let Preheat through: see /docs/site-owners/bot-protection.",
    }),
    beacon_key: z.string().meta({
      description:
        "The site's public beacon key: the `data-site` of the tag that loads the beacon's script, `{base}/beacon.js` (/docs/site-owners/beacon). Not a secret: it sits in the site's pages, and page views count only from the site's own pages. GET /v1/sites/{siteId}/field reads what they report.",
    }),
    created_at: timestamp,
  })
  .meta({ id: "Site" });

export type SitePayload = z.infer<typeof siteSchema>;
export type OwnershipRecheckPayload = z.infer<typeof ownershipRecheckSchema>;

export const validateSiteResponse = z
  .object({
    validated: z.literal(true),
    already_validated: z.boolean().optional(),
    method: validationMethodSchema.optional(),
    validated_at: timestamp.optional(),
  })
  .meta({ id: "SiteValidated" });

export const validationFailedResponse = z
  .object({ validated: z.literal(false), error: z.string(), code: z.literal("ownership_not_proven") })
  .meta({ id: "SiteValidationFailed", description: "No ownership proof was found (token file, meta tag, DNS TXT record); `error` names each method and why it failed." });

export const rotatedVerificationSchema = z
  .object({
    verification_secret: z.string().meta({ description: "The new secret, sent from now on; the site object shows it too." }),
  })
  .meta({ id: "RotatedVerificationSecret" });
