import { z } from "zod";
import { requestProfileSchema, requestProfileTopLevel, variationsSchema, verify } from "@/lib/core/variations";
import { regionListSchema } from "@/lib/core/regions";

export const MAX_WARM_URLS = 5000;

/** A request's list of the site's URLs (a warm, changes): 1 to MAX_WARM_URLS, each checked against the site's domain by its verb. */
export function siteUrlList(description: string) {
  return z.array(z.string().max(8192, "must be at most 8192 characters")).min(1, "must list at least one URL").max(MAX_WARM_URLS, `must list at most ${MAX_WARM_URLS} URLs`).meta({ description });
}

export const warmBody = z
  .object({
    urls: siteUrlList(`Absolute URLs on the site's domain (\`www.\` variants count), at most ${MAX_WARM_URLS}.`),
    region: regionListSchema.optional().meta({ description: 'Default ["fr"]; `uk` is accepted for `gb`.' }),
    url_order: z.enum(["sitemap", "traffic"]).optional().meta({
      description:
        "`sitemap` (the default): the URLs are warmed in the order sent. `traffic`: most visited first by the site's popularity table (GET /v1/sites/{siteId}/traffic), the unvisited after them in the order sent.",
    }),
    variations: variationsSchema.nullable().optional(),
    request_profile: requestProfileSchema.nullable().optional(),
    ...requestProfileTopLevel,
    verify: verify.optional(),
  })
  .meta({ id: "WarmRequest" });

export type WarmInput = z.output<typeof warmBody>;

export const warmQueuedSchema = z
  .object({ run_id: z.number().int(), url_count: z.number().int(), status: z.literal("pending") })
  .meta({ id: "WarmQueued", description: "Poll GET /v1/runs/{run_id}." });
