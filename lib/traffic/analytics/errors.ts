/** What an analytics read found: path → pageviews over the last 30 days; `rows` is how many rows the API returned (skipped ones included). */
export type AnalyticsRead = { visits: Map<string, number>; rows: number };

type AnalyticsFailure = "auth" | "not_found" | "rate_limited" | "unavailable" | "malformed";

/**
 * Why a read failed, for the source's status: auth (key refused/expired/revoked), not_found
 * (site/property unknown or no access), rate_limited, unavailable (5xx, network, timeout),
 * malformed (an answer not shaped as documented). The message is for the site owner: it never
 * holds a key or a token.
 */
export class AnalyticsError extends Error {
  constructor(
    readonly reason: AnalyticsFailure,
    message: string,
    /** rate_limited: the seconds the API asked to wait (Retry-After), when it said. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "AnalyticsError";
  }

  /** Asking again later may succeed without the owner changing anything. */
  get transient(): boolean {
    return this.reason === "rate_limited" || this.reason === "unavailable";
  }
}

/** Limits of one read; the defaults suit production, tests pass smaller ones. */
export type ReadLimits = {
  /** Rows asked per request. */
  pageSize: number;
  /** Rows read at most over all pages (the most viewed first): a site with more paths loses its least viewed. */
  maxRows: number;
  /** Each request, its answer's body included. */
  timeoutMs: number;
};

export const READ_LIMITS: ReadLimits = { pageSize: 10_000, maxRows: 100_000, timeoutMs: 30_000 };
