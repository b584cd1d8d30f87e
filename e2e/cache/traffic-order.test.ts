import { expect, inject, it } from "vitest";
import { newKey } from "@/app/api/v1/__tests__/support/api";
import { compareTrafficOrder } from "@/lib/testing/traffic-order";

// Issue 59's proof of value where visitors meet it: 1,000 pages with Zipf popularity, listed in a
// shuffle; a call limit of 20 % of a full warm spent in the list's order on one site (no traffic
// data) and in traffic order on another, learned from the access log a real nginx in front of its
// cache wrote; then the same fresh visitors on both, whose misses the caches do not store. The
// smaller sibling of `npm run bench -- traffic-order` (lib/testing/traffic-order.ts).

const HOSTS = { sitemap: "sitemap-order.cache.test", traffic: "traffic-order.cache.test" };

it("a 20 % budget spent in traffic order gives visitors several times the hits of the sitemap's order", async () => {
  const result = await compareTrafficOrder({
    baseUrl: inject("baseUrl"),
    key: await newKey(),
    pages: 1_000,
    budgetShare: 0.2,
    learningVisits: 10_000,
    visits: 10_000,
    hosts: HOSTS,
    frontDoors: inject("cachePorts"),
    runTimeoutMs: 60_000,
  });
  const { sitemap, traffic } = result.arms;
  console.info(
    `traffic order: visitors' hit ratio ${traffic.hitRatio.toFixed(3)} (${traffic.calls} calls, visit_share ${traffic.runShare?.share?.toFixed(3)}); sitemap order: ${sitemap.hitRatio.toFixed(3)} (${sitemap.calls} calls)`,
  );
  // The nginx log was read whole, and only the learning visitors counted (Preheat's own validation requests are left out).
  expect(result.learning.counts).toMatchObject({ format: "combined", counted: 10_000, broken: 0 });
  for (const arm of [sitemap, traffic]) {
    expect(arm.status).toBe("done");
    expect(arm.calls).toBe(result.budget);
    expect(arm.warmedPages).toBe(result.budget);
  }
  // The sitemap site has no traffic data: Preheat says no share, and its call limit kept the list's first URLs.
  expect(sitemap.runShare).toBeNull();
  expect(traffic.runShare?.share).toBeCloseTo(traffic.learnedShare, 3);
  expect(traffic.estimateShare?.share).toBeCloseTo(traffic.learnedShare, 3);
  expect(traffic.hitRatio).toBeGreaterThan(0.5);
  expect(traffic.hitRatio).toBeGreaterThan(2 * sitemap.hitRatio);
  // Traffic order lands near the best any 200 pages can give.
  expect(traffic.hitRatio).toBeGreaterThan(result.bestHitRatio - 0.05);
}, 120_000);
