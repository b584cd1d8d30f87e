import { describe, expect, it } from "vitest";
import { bucketMs, NO_TTFB, quantileMs, TTFB_CAP_MS, ttfbBucket } from "./ttfb";

describe("TTFB buckets", () => {
  it("keeps every time within 2.5 % of the figure its bucket stands for, from 1 ms to a minute", () => {
    for (let ms = 1; ms < TTFB_CAP_MS; ms = ms * 1.013 + 0.37) {
      const shown = bucketMs(ttfbBucket(ms));
      // Rounding to whole milliseconds adds up to half a millisecond for the smallest times.
      expect(Math.abs(shown - ms), `${ms} ms`).toBeLessThanOrEqual(ms * 0.025 + 0.5);
    }
  });

  it("orders the buckets as the times, puts times under 1 ms in bucket 0, and a missing time in its own", () => {
    expect(ttfbBucket(0)).toBe(0);
    expect(ttfbBucket(0.4)).toBe(0);
    expect(ttfbBucket(1)).toBe(1);
    expect(ttfbBucket(100)).toBeLessThan(ttfbBucket(106));
    expect(ttfbBucket(null)).toBe(NO_TTFB);
    expect(ttfbBucket(Number.NaN)).toBe(NO_TTFB);
    expect(ttfbBucket(-3)).toBe(NO_TTFB);
    // Past a minute, every time shares the last bucket, which fits a smallint.
    expect(ttfbBucket(10 * TTFB_CAP_MS)).toBe(ttfbBucket(TTFB_CAP_MS));
    expect(ttfbBucket(TTFB_CAP_MS)).toBeLessThan(32_767);
  });

  it("reads percentiles by nearest rank, leaving views without a time out", () => {
    const counts = new Map<number, number>();
    const add = (ms: number | null, views = 1) => counts.set(ttfbBucket(ms), (counts.get(ttfbBucket(ms)) ?? 0) + views);
    expect(quantileMs(counts, 0.5)).toBeNull();
    add(null, 50);
    expect(quantileMs(counts, 0.5)).toBeNull();
    // 100 views: 1..100 ms; the median is the 50th (50 ms), the 75th percentile the 75th (75 ms).
    for (let ms = 1; ms <= 100; ms++) add(ms);
    expect(Math.abs(quantileMs(counts, 0.5)! - 50)).toBeLessThanOrEqual(50 * 0.025 + 0.5);
    expect(Math.abs(quantileMs(counts, 0.75)! - 75)).toBeLessThanOrEqual(75 * 0.025 + 0.5);
    expect(quantileMs(new Map([[ttfbBucket(420), 1]]), 0.75)).toBe(bucketMs(ttfbBucket(420)));
  });
});
