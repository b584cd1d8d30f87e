import { describe, expect, it } from "vitest";
import { ADAPTIVE, AdaptiveWindow } from "./adaptive-window";

const feed = (window: AdaptiveWindow, ms: number, calls: number) => {
  const changes = [];
  for (let i = 0; i < calls; i++) {
    const change = window.observe(ms);
    if (change) changes.push(change);
  }
  return changes;
};

describe("AdaptiveWindow", () => {
  it("halves when the last 50 calls are over 3 × slower than the first 50, once per 50 calls, down to 1", () => {
    const window = new AdaptiveWindow(8);
    expect(feed(window, 50, ADAPTIVE.sample)).toEqual([]);
    expect(feed(window, 140, 100)).toEqual([]); // 2.8 × is not slow enough
    const changes = feed(window, 2000, 200);
    expect(changes.map((c) => c.concurrency)).toEqual([4, 2, 1]);
    expect(changes[0]!.reason).toMatch(/median response time of the last 50 calls \(\d+ ms\) is over 3 × that of the first 50 \(50 ms\)/);
    expect(window.window).toBe(1);
  });

  it("grows back by one per 50 calls once the site answers at its usual pace, up to the site's limit", () => {
    const window = new AdaptiveWindow(4);
    feed(window, 40, ADAPTIVE.sample);
    feed(window, 400, 100);
    expect(window.window).toBe(1);
    const changes = feed(window, 45, 300);
    expect(changes.map((c) => c.concurrency)).toEqual([2, 3, 4]);
    expect(changes[0]!.reason).toMatch(/answers at its usual pace again/);
  });

  it("drops to one call at a time on Retry-After", () => {
    const window = new AdaptiveWindow(4);
    expect(window.retryAfter(30, 429)).toEqual({ reason: "the site answered 429 with Retry-After: 30 s", concurrency: 1 });
    expect(window.retryAfter(30, 503)).toBeUndefined();
  });

  it("reads the median of exactly the last 50 calls, repeated times included", () => {
    const window = new AdaptiveWindow(4);
    feed(window, 10, ADAPTIVE.sample);
    // 25 fast and 25 slow calls: the median is the mean of 10 and 40, 25 ms, under 3 × 10.
    expect(feed(window, 10, 25)).toEqual([]);
    expect(feed(window, 40, 25)).toEqual([]);
    // One more slow call pushes the oldest fast one out: the median is now 40 ms, over 30 ms.
    expect(window.observe(40)).toMatchObject({ concurrency: 2 });
  });
});
