/**
 * Times to first byte are kept as buckets (`field_views.ttfb_bucket`), never as the visitor's own
 * figure: log-spaced, each 5 % wider than the one before, so that a percentile read from the buckets
 * is within 2.5 % of the true one at any scale (1 ms or 10 s alike), in 227 buckets from 0 to 60 s.
 *
 * Bucket 0 holds times under 1 ms; bucket i ≥ 1 holds [1.05^(i−1), 1.05^i) ms; times over a minute
 * fall in the last one. −1 stands for a view whose browser gave no time.
 */
const GROWTH = 1.05;
const LOG_GROWTH = Math.log(GROWTH);
/** Times from this on share the last bucket: no page view waits a minute for its first byte. */
export const TTFB_CAP_MS = 60_000;
export const NO_TTFB = -1;
const LAST_BUCKET = 1 + Math.floor(Math.log(TTFB_CAP_MS) / LOG_GROWTH);

/** The bucket of a time to first byte in milliseconds (null: none measured). */
export function ttfbBucket(ms: number | null): number {
  if (ms === null || !Number.isFinite(ms) || ms < 0) return NO_TTFB;
  if (ms < 1) return 0;
  return Math.min(LAST_BUCKET, 1 + Math.floor(Math.log(ms) / LOG_GROWTH));
}

/** The time a bucket stands for: the geometric middle of its bounds, in whole milliseconds (bucket 0: 0). */
export function bucketMs(bucket: number): number {
  if (bucket <= 0) return 0;
  return Math.round(GROWTH ** (bucket - 1) * Math.sqrt(GROWTH));
}

/**
 * The `q` quantile (0.5 for the median) of the views counted per bucket, by nearest rank: the
 * bucket holding the ⌈q·n⌉-th fastest view. null when no view has a time.
 */
export function quantileMs(counts: Map<number, number>, q: number): number | null {
  const buckets = [...counts.entries()].filter(([bucket, views]) => bucket !== NO_TTFB && views > 0).sort((a, b) => a[0] - b[0]);
  const total = buckets.reduce((n, [, views]) => n + views, 0);
  if (!total) return null;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (const [bucket, views] of buckets) {
    seen += views;
    if (seen >= rank) return bucketMs(bucket);
  }
  return bucketMs(buckets[buckets.length - 1]![0]);
}
