import type { RunReportProps } from "./templates/run-report";

/** Test data shared by the e-mail tests. */
const sample = (i: number) => ({
  url: `https://shop.test/broken-${i}`,
  region: "fr",
  user_agent: "mobile",
  language: i % 2 ? null : "fr-FR",
  status: i === 1 ? null : 500,
  error: i === 1 ? "timeout" : "HTTP 500",
});

/** A run report with more PoPs and failure samples than the e-mail shows (5 of each). */
export const reportProps: RunReportProps = {
  boostName: "Nightly",
  siteDomain: "shop.test",
  runId: 7,
  status: "done",
  statusMessage: null,
  startedAt: "2026-11-22T03:00:00.000Z",
  finishedAt: "2026-11-22T03:02:05.000Z",
  summary: {
    total_calls: 2000,
    successful_calls: 1960,
    failed_calls: 40,
    cache_hits: 800,
    average_response_time_ms: 123.4,
    pops: { AMS: 10, CDG: 1200, FRA: 700, LHR: 40, MAD: 30, WAW: 20 },
    not_cached: { miss: 700, set_cookie: 300, http_error: 40, vary: 160 },
    cache_misses: 700,
    average_hit_response_time_ms: 41.2,
    average_miss_response_time_ms: 312.5,
    verified: { calls: 700, hits: 690 },
  },
  popsBreakdown: [
    { pop: "CDG", calls: 1200, hits: 500, average_hit_response_time_ms: 38.1, average_miss_response_time_ms: 290.4 },
    { pop: "FRA", calls: 700, hits: 290, average_hit_response_time_ms: 45, average_miss_response_time_ms: 350 },
    { pop: "LHR", calls: 40, hits: 5, average_hit_response_time_ms: 50, average_miss_response_time_ms: 400 },
    { pop: "MAD", calls: 30, hits: 3, average_hit_response_time_ms: 52, average_miss_response_time_ms: 410 },
    { pop: "WAW", calls: 20, hits: 2, average_hit_response_time_ms: 60, average_miss_response_time_ms: null },
    { pop: "AMS", calls: 10, hits: 0, average_hit_response_time_ms: null, average_miss_response_time_ms: 380 },
  ],
  regions: ["fr", "de"],
  failureSamples: [1, 2, 3, 4, 5, 6].map(sample),
  runUrl: "https://preheat.test/runs/7",
};
