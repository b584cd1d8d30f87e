import { siteParams } from "@/lib/api/params";
import { siteFieldQuery, siteFieldSchema } from "@/lib/traffic/field/field-schemas";
import { defineOperation } from "../operation";

export const getSiteField = defineOperation({
  operationId: "getSiteField",
  method: "get",
  path: "/v1/sites/{siteId}/field",
  tag: "Traffic",
  summary: "What the site's visitors got from the CDN (field data): hit ratio and time to first byte, by hour, device and PoP region",
  description:
    "From the page views the beacon reports (the script `{base}/beacon.js`, loaded by a tag whose `data-site` is the site's `beacon_key`: /docs/site-owners/beacon): per UTC hour, per device class and per country of the CDN's PoP (where its Server-Timing names one), the views, their cache verdict as the CDN put it in Server-Timing (`hits`, `misses`, `unknown`), `hit_ratio` = hits / (hits + misses), and the median and 75th percentile of the time to first byte the browsers measured (read from buckets 5 % wide: within 2.5 %). The views are a sample when `sample_rate` is below 1. The hours run from `from`'s hour to `to` (the last 24 hours by default, at most 31 days: 422 beyond), the hour going on included. `script_tag` is the tag to paste into the site's pages.",
  scope: "sites:read",
  params: siteParams,
  query: siteFieldQuery,
  status: 200,
  response: siteFieldSchema,
});
