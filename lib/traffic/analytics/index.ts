/**
 * Page popularity read from a site's analytics (issue: traffic sources): Plausible's Stats API v2
 * and Google Analytics 4's Data API. Each read asks for the pageviews per path over the last 30
 * days, through lib/fetch, and answers all of it or throws an AnalyticsError: the caller stores
 * nothing of a failed read. Keys are given in clear here; sealing them is the caller's.
 */
export { AnalyticsError, type AnalyticsRead } from "./errors";
export { readGa4 } from "./ga4";
export { readPlausible } from "./plausible";
export { parseServiceAccountKey } from "./service-account";
