import { setting } from "@/lib/config";
import { POPULARITY_DAYS } from "@/lib/core/traffic";
import { AnalyticsError, type AnalyticsRead, READ_LIMITS, type ReadLimits } from "./errors";
import { type ApiAnswer, apiWords, isObject, jsonOf, postToApi, retryAfterSeconds } from "./http";
import { VisitsTally } from "./tally";

const SERVICE = "Plausible";

/**
 * A site's pageviews per page over the last 30 days, from Plausible's Stats API v2
 * (`POST /api/v2/query`, `event:page` by `pageviews`), page after page until a page comes back
 * short or `maxRows` rows were read. All or nothing: any failure, on any page, throws.
 */
export async function readPlausible(input: { siteId: string; apiKey: string }, limits: Partial<ReadLimits> = {}): Promise<AnalyticsRead> {
  const { pageSize, maxRows, timeoutMs } = { ...READ_LIMITS, ...limits };
  const siteId = input.siteId.trim();
  const apiKey = input.apiKey.trim();
  if (!siteId) throw new AnalyticsError("not_found", "No Plausible site id: give the site's domain as Plausible names it.");
  if (!apiKey) throw new AnalyticsError("auth", "No Plausible API key.");
  const url = `${setting("PREHEAT_PLAUSIBLE_BASE_URL")}/api/v2/query`;
  const tally = new VisitsTally();
  for (let offset = 0; tally.count < maxRows; ) {
    const limit = Math.min(pageSize, maxRows - tally.count);
    const query = {
      site_id: siteId,
      metrics: ["pageviews"],
      date_range: `${POPULARITY_DAYS}d`,
      dimensions: ["event:page"],
      // The page as second key: equal counts keep one order from one page to the next.
      order_by: [
        ["pageviews", "desc"],
        ["event:page", "asc"],
      ],
      pagination: { limit, offset },
    };
    const answer = await postToApi(SERVICE, url, JSON.stringify(query), {
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      timeoutMs,
    });
    if (answer.status !== 200) throw failure(answer, siteId, apiKey);
    const results = resultsOf(jsonOf(answer.text));
    for (const row of results) tally.add(row.path, row.pageviews);
    if (results.length < limit) break;
    offset += results.length;
  }
  return tally.result();
}

type Row = { path: string; pageviews: number };

/** The rows of an answer shaped as documented: `{ results: [{ metrics: [n], dimensions: ["/path"] }], meta, query }`. */
function resultsOf(body: unknown): Row[] {
  if (!isObject(body) || !Array.isArray(body.results)) throw malformed("its answer has no results list");
  return body.results.map((row, index) => {
    const metrics = isObject(row) ? row.metrics : undefined;
    const dimensions = isObject(row) ? row.dimensions : undefined;
    if (!Array.isArray(metrics) || !Array.isArray(dimensions)) throw malformed(`result ${index + 1} has no metrics and dimensions lists`);
    const [pageviews] = metrics;
    const [path] = dimensions;
    if (typeof pageviews !== "number" || !Number.isSafeInteger(pageviews) || pageviews < 0) throw malformed(`result ${index + 1} has no pageviews count (a whole number)`);
    if (typeof path !== "string") throw malformed(`result ${index + 1} names no page`);
    return { path, pageviews };
  });
}

function malformed(what: string): AnalyticsError {
  return new AnalyticsError("malformed", `Plausible answered in a shape Preheat does not know: ${what}.`);
}

/** Plausible answers `{ "error": "…" }` with 400, 401, 402, 404 and 429 (its API helpers). */
function failure(answer: ApiAnswer, siteId: string, apiKey: string): AnalyticsError {
  const body = jsonOf(answer.text);
  const words = apiWords(isObject(body) ? body.error : undefined, [apiKey]);
  const said = words ? ` Plausible says: ${words}` : "";
  const site = JSON.stringify(siteId);
  switch (answer.status) {
    case 401:
      // Plausible says the same for a wrong key and for a site the key cannot see.
      return new AnalyticsError("auth", `Plausible refused the API key for site ${site}: the key is wrong, revoked or not a Stats API key, or its account has no access to a site of that id.${said}`);
    case 402:
      return new AnalyticsError("auth", `Plausible refused the API key for site ${site}: its account's plan has no Stats API, or the site is locked.${said}`);
    case 403:
      return new AnalyticsError("auth", `Plausible does not let this API key read site ${site}.${said}`);
    case 404:
      return new AnalyticsError("not_found", `Plausible knows no site ${site}, or no Stats API at this address (HTTP 404).${said}`);
    case 429: {
      const wait = retryAfterSeconds(answer.headers);
      const when = wait === undefined ? "" : ` It asks to wait ${wait} s.`;
      return new AnalyticsError("rate_limited", `Plausible's rate limit for this API key is reached (600 requests an hour by default).${when}${said}`, wait);
    }
    case 408:
      return new AnalyticsError("unavailable", `Plausible did not answer in time (HTTP 408).${said}`);
    default:
      if (answer.status >= 500) return new AnalyticsError("unavailable", `Plausible failed (HTTP ${answer.status}); the next read tries again.${said}`);
      return new AnalyticsError("malformed", `Plausible refused Preheat's query (HTTP ${answer.status}).${said}`);
  }
}
